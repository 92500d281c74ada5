import { Duplex, PassThrough } from 'node:stream';
import { serialize } from 'node:v8';
import { describe, expect, it } from 'vitest';
import { openFrameChannel } from '../../../src/engine/frame-channel.js';
import { FRAME_SHARE, frameCost } from '../../../src/engine/frame-share.js';

/** A frame as the channel writes it: 4-byte length, then V8's serialization. */
function frame(value: unknown): Buffer {
  const body = serialize(value);
  const head = Buffer.alloc(4);
  head.writeUInt32BE(body.length, 0);
  return Buffer.concat([head, body]);
}

function reader(maxFrameBytes = 1024) {
  const stream = new PassThrough();
  const frames: unknown[] = [];
  const corrupt: string[] = [];
  openFrameChannel(
    stream,
    maxFrameBytes,
    (value) => void frames.push(value),
    (why) => void corrupt.push(why),
  );
  return { stream, frames, corrupt };
}

/** A channel that writes into a PassThrough, and every chunk that came out of it. */
function writer() {
  const stream = new PassThrough();
  const written: Buffer[] = [];
  stream.on('data', (chunk: Buffer) => void written.push(chunk));
  const channel = openFrameChannel(
    stream,
    1024,
    () => {},
    () => {},
  );
  return { stream, written, channel };
}

describe('the framed channel between the service and its engine', () => {
  it('reads frames whole however the bytes are split, in order', () => {
    const { stream, frames, corrupt } = reader();
    const bytes = Buffer.concat([frame({ t: 'hello', pid: 1 }), frame(new Map([['sh', 1]])), frame('x'.repeat(300))]);
    for (let at = 0; at < bytes.length; at += 7) stream.write(bytes.subarray(at, at + 7));
    expect(frames).toEqual([{ t: 'hello', pid: 1 }, new Map([['sh', 1]]), 'x'.repeat(300)]);
    expect(corrupt).toEqual([]);
  });

  it('writes each value as one buffer: its length, then exactly what v8.serialize writes', () => {
    const { written, channel } = writer();
    const value = { t: 'sinks', calls: [[1, ['write', 'out', 'é'.repeat(40)]]] };
    expect(channel.send(value)).toBe(true);
    expect(channel.send('x')).toBe(true);
    expect(written).toEqual([frame(value), frame('x')]);
  });

  it('writes several values sent together in one write, and the reader gets each of them', () => {
    const writes: Buffer[][] = [];
    const stream = new Duplex({
      read() {},
      write(chunk: Buffer, _encoding, done) {
        writes.push([chunk]);
        done();
      },
      writev(chunks, done) {
        writes.push(chunks.map(({ chunk }) => chunk as Buffer));
        done();
      },
    });
    const channel = openFrameChannel(
      stream,
      1024,
      () => {},
      () => {},
    );
    const batch = { t: 'sinks', calls: [[3, ['setState', 'out', 'closed']]] };
    const outcome = { t: 'outcome', id: 3 };
    expect(channel.send(batch, outcome)).toBe(true);
    expect(channel.send('alone')).toBe(true);
    expect(writes).toEqual([[frame(batch), frame(outcome)], [frame('alone')]]);
    const { stream: input, frames } = reader();
    input.write(Buffer.concat(writes[0]!));
    expect(frames).toEqual([batch, outcome]);
  });

  it('leaves the stream uncorked when a write of frames sent together throws, so later frames still go out', () => {
    const { stream, written, channel } = writer();
    const write = stream.write.bind(stream);
    let calls = 0;
    stream.write = ((chunk: Buffer) => {
      if (++calls === 2) throw new Error('refused');
      return write(chunk);
    }) as typeof stream.write;
    expect(channel.send('first', 'second')).toBe(false);
    expect(stream.writableCorked).toBe(0);
    expect(channel.send('after')).toBe(true);
    expect(written).toEqual([frame('first'), frame('after')]);
  });

  it('reports bytes V8 cannot read once, instead of throwing, and reads nothing after them', () => {
    const { stream, frames, corrupt } = reader();
    const garbage = Buffer.alloc(12);
    garbage.writeUInt32BE(8, 0);
    garbage.write('garbage!', 4);
    expect(() => stream.write(Buffer.concat([garbage, frame('after')]))).not.toThrow();
    expect(frames).toEqual([]);
    expect(corrupt).toHaveLength(1);
    expect(corrupt[0]).toMatch(/^a frame V8 could not read/);
  });

  it('refuses a frame that announces more than its bound before buffering it', () => {
    const { stream, frames, corrupt } = reader(100);
    stream.write(frame('y'.repeat(200)));
    expect(frames).toEqual([]);
    expect(corrupt).toEqual([expect.stringMatching(/^a frame of \d+ bytes \(the bound is 100\)$/)]);
  });

  it('reports a reader that throws as corrupt rather than letting it reach the process', () => {
    const stream = new PassThrough();
    const corrupt: string[] = [];
    openFrameChannel(
      stream,
      1024,
      () => {
        throw new Error('refused');
      },
      (why) => void corrupt.push(why),
    );
    expect(() => stream.write(frame(1))).not.toThrow();
    expect(corrupt).toEqual(['a frame its reader refused (refused)']);
  });

  it('sends what the other end reads back', () => {
    const stream = new PassThrough();
    const frames: unknown[] = [];
    const channel = openFrameChannel(
      stream,
      1024,
      (value) => void frames.push(value),
      () => {},
    );
    expect(channel.send({ t: 'closed' })).toBe(true);
    expect(frames).toEqual([{ t: 'closed' }]);
  });

  it('reads a flood a share per turn, so another channel’s frame is not held behind all of it', async () => {
    const flooded = reader(1 << 20);
    const other = reader();
    // Sink batches of 16 one-character writes, as an engine sends a flood: 17 units of the share each.
    const batch = (n: number) => ({ t: 'sinks', calls: Array.from({ length: 16 }, () => [n, ['write', 'out', 'x']]) });
    const batches = 40;
    expect(frameCost(batch(0))).toBe(17);
    // One read of the pipe holding every batch: without a share, all were handled before the other frame.
    flooded.stream.write(Buffer.concat(Array.from({ length: batches }, (_, n) => frame(batch(n)))));
    const heardBefore = new Promise<number>((resolve) => {
      other.stream.once('data', () => resolve(flooded.frames.length));
    });
    other.stream.write(frame({ t: 'outcome', id: 7 }));
    expect(await heardBefore).toBeLessThanOrEqual(2 * Math.ceil(FRAME_SHARE / 17));
    expect(other.frames).toEqual([{ t: 'outcome', id: 7 }]);
    while (flooded.frames.length < batches) await new Promise((resolve) => setImmediate(resolve));
    expect(flooded.frames).toEqual(Array.from({ length: batches }, (_, n) => batch(n)));
    expect(flooded.corrupt).toEqual([]);
  });
});

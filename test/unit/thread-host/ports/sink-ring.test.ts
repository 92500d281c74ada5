import { Worker } from 'node:worker_threads';
import { afterEach, describe, expect, it } from 'vitest';
import { DEFAULT_LIMITS } from '../../../../src/contracts/limits.js';
import {
  RING_CHUNK,
  RING_DOORBELL,
  RING_HEADER_BYTES,
  RING_UNITS,
  RING_WRITTEN,
} from '../../../../src/contracts/sink-ring.js';
import {
  ENGINE_MAIN_THREAD,
  ringPacing,
  setRingPacing,
  SHARED_MAIN_THREAD,
} from '../../../../src/thread-host/ports/ring-pace.js';
import { RunStream } from '../../../../src/thread-host/ports/run-stream.js';
import { exposeSinks } from '../../../../src/thread-host/ports/sink-port.js';
import { SinkRing } from '../../../../src/thread-host/ports/sink-ring.js';
import { ThreadPort } from '../../../../src/thread-host/ports/thread-port.js';
import { proxySinks } from '../../../../src/worker/sink-proxy.js';
import { SinkRingWriter } from '../../../../src/worker/sink-ring-writer.js';

const decls = { out: { mimetype: 'text/plain' }, err: { mimetype: 'text/plain' } };

/** A thread's sink channel and ring, with the host's end of one run over them (as execute-run binds it). */
function hostEnd(channel = new ThreadPort(), ring = new SinkRing()) {
  const stream = new RunStream(decls);
  const host = exposeSinks(stream, { channel, ring });
  return { stream, host, channel, ring };
}

/** Both ends in one thread: what the worker posts on the port is recorded. */
function pair() {
  const end = hostEnd();
  const port = end.channel.workerPort;
  const posted: unknown[] = [];
  const post = port.postMessage.bind(port);
  port.postMessage = (message: unknown, transfer?: never) => {
    posted.push(message);
    post(message, transfer);
  };
  const writer = SinkRingWriter.open(end.ring.buffer, () => port.postMessage(RING_DOORBELL))!;
  const worker = proxySinks(port, { hasEntry: false, budget: DEFAULT_LIMITS.sinkMessages, ring: writer });
  return { ...end, posted, writer, ...worker };
}

describe("a thread's sink ring", () => {
  it("applies ring writes, channel switches, states and requests in the leaf's order", async () => {
    const { stream, posted, sinks, flush, host } = pair();
    // Runs of ring writes between every kind of message: a channel switch, a mimetype, a state.
    const run = (channel: string, from: number) => {
      for (let i = from; i < from + 3; i++) sinks.write(channel, `${channel}${i} `);
    };
    run('out', 0);
    run('err', 0);
    sinks.write('out', '{"c":1}', 'application/json');
    run('out', 3);
    sinks.setState('err', 'closed');
    run('out', 6);
    sinks.write('err', 'late');
    await flush();
    host.close();
    expect(stream.channels.out!.parts).toEqual([
      { mimetype: 'text/plain', text: 'out0 out1 out2 ' },
      { mimetype: 'application/json', text: '{"c":1}out3 out4 out5 out6 out7 out8 ' },
    ]);
    expect(stream.channels.err).toMatchObject({ text: 'err0 err1 err2 ', state: 'closed' });
    expect(stream.violations).toEqual([{ kind: 'inactive-channel', detail: 'write to err after it became closed' }]);
    // Short writes to the channel of the last plain write went into the ring, not on the port.
    expect(posted.filter((message) => typeof message === 'string')).toEqual([]);
    expect(posted.filter((message) => message !== RING_DOORBELL)).toEqual([
      ['write', 'out', 'out0 ', undefined],
      ['write', 'err', 'err0 ', undefined],
      ['write', 'out', '{"c":1}', 'application/json'],
      ['write', 'out', 'out3 ', undefined],
      ['setState', 'err', 'closed'],
      ['write', 'err', 'late', undefined],
      ['flush', expect.any(Number)],
    ]);
  });

  it('posts a write longer than a ring record as a message, in its place among the ring writes', async () => {
    const { stream, posted, sinks, flush, host } = pair();
    const long = 'L'.repeat(RING_CHUNK + 1);
    sinks.write('out', 'a');
    sinks.write('out', 'b');
    sinks.write('out', long);
    sinks.write('out', 'c');
    sinks.write('out', '');
    await flush();
    host.close();
    expect(stream.channels.out!.text).toBe(`ab${long}c`);
    expect(posted).toContain(long);
  });

  it('keeps what the ring took when the thread wrote no message after it (a thread that died)', () => {
    const { stream, sinks, host } = pair();
    sinks.write('out', 'a');
    for (let i = 0; i < 5_000; i++) sinks.write('out', 'x');
    // No event has been delivered yet: the drain a run's end does reads the ring itself.
    host.drain();
    host.close();
    expect(stream.channels.out!.text).toBe(`a${'x'.repeat(5_000)}`);
  });

  it('lands later writes after a call that could not be cloned, and the barrier after them', async () => {
    const { stream, sinks, flush, host } = pair();
    sinks.write('out', 'a');
    sinks.setState('out', (() => 'no clone') as unknown as 'closed');
    sinks.write('out', 'b');
    await flush();
    // The barrier answers once everything before it was applied: 'b' too, though the call before it was dropped.
    expect(stream.channels.out!.text).toBe('ab');
    host.close();
  });

  it('applies a message the leaf posted on its own, without a mark, where it came', async () => {
    const { stream, sinks, flush, host, channel } = pair();
    sinks.write('out', 'a');
    channel.workerPort.postMessage(['setState', 'err', 'closed']);
    sinks.write('out', 'b');
    await flush();
    host.close();
    expect(stream.channels.out!.text).toBe('ab');
    expect(stream.channels.err!.state).toBe('closed');
  });

  it("gives a run's next run nothing the ring held when the run closed", async () => {
    const channel = new ThreadPort();
    const ring = new SinkRing();
    const first = hostEnd(channel, ring);
    const writer = SinkRingWriter.open(ring.buffer, () => channel.workerPort.postMessage(RING_DOORBELL))!;
    const one = proxySinks(channel.workerPort, { hasEntry: false, budget: 100, ring: writer });
    one.sinks.write('out', 'a');
    await one.flush();
    one.close();
    // Written after the run's last call, as a leaf writing into the ring on its own could.
    writer.text('stray');
    first.host.close();
    const second = hostEnd(channel, ring);
    const two = proxySinks(channel.workerPort, { hasEntry: false, budget: 100, ring: writer });
    two.sinks.write('out', 'b');
    two.sinks.write('out', 'c');
    await two.flush();
    second.host.close();
    expect(first.stream.channels.out!.text).toBe('a');
    expect(second.stream.channels.out!.text).toBe('bc');
    expect(second.stream.violations).toEqual([]);
  });

  it('closes the port on a record that cannot be one, and names it', async () => {
    const { stream, sinks, host, ring } = pair();
    sinks.write('out', 'a');
    // A leaf that reaches the ring's memory claims more than it holds.
    const header = new Int32Array(ring.buffer, 0, 4);
    const units = new Uint16Array(ring.buffer, RING_HEADER_BYTES, RING_UNITS);
    const at = Atomics.load(header, RING_WRITTEN);
    units[at] = RING_CHUNK + 7;
    Atomics.store(header, RING_WRITTEN, at + 2);
    host.drain();
    expect(host.overflowed).toBe(true);
    expect(stream.violations).toContainEqual({
      kind: 'malformed-sink-call',
      detail:
        "sink port: the thread's sink ring holds a record that cannot be one; the port was closed and later calls are lost",
    });
    host.close();
  });

  it('closes the port on a place past the ring', () => {
    const { stream, host, ring } = pair();
    Atomics.store(new Int32Array(ring.buffer, 0, 4), RING_WRITTEN, RING_UNITS + 1);
    host.drain();
    expect(host.overflowed).toBe(true);
    expect(stream.violations.map((v) => v.detail)).toEqual([
      "sink port: the thread's sink ring holds a record that cannot be one; the port was closed and later calls are lost",
    ]);
    host.close();
  });

  it('closes the port on a flood of doorbells with nothing written', async () => {
    const { stream, host, channel } = hostEnd();
    for (let i = 0; i < 2_000; i++) channel.workerPort.postMessage(RING_DOORBELL);
    await new Promise((resolve) => setTimeout(resolve, 50));
    expect(host.overflowed).toBe(true);
    expect(stream.violations.map((v) => v.detail)).toEqual([
      "sink port: the thread rang its sink ring's doorbell 1025 times for 0 writes; the port was closed and later calls are lost",
    ]);
    host.close();
  });

  it('holds a flooding thread to the pace the host reads at: every write lands, few messages cross', async () => {
    const { stream, host, channel, ring } = hostEnd();
    // Twelve times what the ring holds: the thread must wait for the host to read, turn by turn.
    const count = 200_000;
    const port = channel.workerPort;
    const worker = new Worker(
      `
      const { parentPort, workerData } = require('node:worker_threads');
      const { proxy, writer, port, ring, count } = workerData;
      (async () => {
        const { proxySinks } = await import(proxy);
        const { SinkRingWriter } = await import(writer);
        let posted = 0;
        const post = port.postMessage.bind(port);
        port.postMessage = (message) => { posted++; post(message); };
        const w = SinkRingWriter.open(ring, () => port.postMessage(0));
        const sinks = proxySinks(port, { hasEntry: false, budget: 1e6, ring: w });
        for (let i = 0; i < count; i++) sinks.sinks.write('out', 'x');
        await sinks.flush();
        parentPort.postMessage(posted);
      })();
      `,
      {
        eval: true,
        workerData: {
          proxy: distUrl('worker/sink-proxy.js'),
          writer: distUrl('worker/sink-ring-writer.js'),
          port,
          ring: ring.buffer,
          count,
        },
        transferList: [port],
      },
    );
    try {
      const posted = await new Promise<number>((resolve, reject) => {
        worker.once('message', resolve);
        worker.once('error', reject);
      });
      expect(stream.channels.out!.text).toBe('x'.repeat(count));
      expect(stream.violations).toEqual([]);
      // The first write names its channel and the barrier is a request; the rest are doorbells.
      expect(posted).toBeLessThan(count / 100);
    } finally {
      host.close();
      await worker.terminate();
    }
  });
});

const turns = async (count: number) => {
  for (let i = 0; i < count; i++) await new Promise((resolve) => setImmediate(resolve));
};

describe('reading a sink ring at a pace', () => {
  afterEach(() => setRingPacing(SHARED_MAIN_THREAD));

  it('is unpaced on a main thread every package shares, and paced in an engine', () => {
    expect(ringPacing()).toBe(SHARED_MAIN_THREAD);
    expect(SHARED_MAIN_THREAD.perMs).toBe(Infinity);
    expect(Number.isFinite(ENGINE_MAIN_THREAD.perMs)).toBe(true);
    expect(ENGINE_MAIN_THREAD.burst).toBeGreaterThanOrEqual(ENGINE_MAIN_THREAD.share);
  });

  it('reads a flood past its burst no faster than its rate, on a timer, every write in order', async () => {
    setRingPacing({ share: 8, perMs: 0.5, burst: 16 });
    const started = performance.now();
    const { stream, host, sinks } = pair();
    sinks.write('out', 'a');
    for (let i = 0; i < 40; i++) sinks.write('out', String(i % 10));
    await turns(10);
    // The burst was read, a share a turn; further turns read nothing more: the rest waits for a timer.
    const early = stream.channels.out!.text.length;
    expect(early).toBeGreaterThan(1);
    expect(early).toBeLessThanOrEqual(1 + 16);
    while (stream.channels.out!.text.length < 41 && performance.now() - started < 5_000)
      await new Promise((resolve) => setTimeout(resolve, 5));
    // 40 records, 16 at once and 0.5 a millisecond after: none can have been read before 48 ms.
    expect(performance.now() - started).toBeGreaterThanOrEqual(48);
    expect(stream.channels.out!.text).toBe(`a${'0123456789'.repeat(4)}`);
    host.close();
  });

  it("drains all the ring holds at the run's end, whatever the pace", async () => {
    setRingPacing({ share: 4, perMs: 0.01, burst: 4 });
    const { stream, host, sinks } = pair();
    sinks.write('out', 'a');
    for (let i = 0; i < 100; i++) sinks.write('out', 'x');
    await turns(5);
    expect(stream.channels.out!.text.length).toBeLessThan(101);
    host.drain();
    expect(stream.channels.out!.text).toBe(`a${'x'.repeat(100)}`);
    host.close();
  });

  it('reads the same flood within a few turns when unpaced', async () => {
    const { stream, host, sinks } = pair();
    sinks.write('out', 'a');
    for (let i = 0; i < 40; i++) sinks.write('out', 'x');
    await turns(10);
    expect(stream.channels.out!.text).toBe(`a${'x'.repeat(40)}`);
    host.close();
  });
});

/** A built module's URL: the thread imports what the host's threads import. */
function distUrl(path: string): string {
  return new URL(`../../../../dist/${path}`, import.meta.url).href;
}

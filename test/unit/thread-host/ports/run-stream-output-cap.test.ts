import { describe, expect, it } from 'vitest';
import { RunStream } from '../../../../src/thread-host/ports/run-stream.js';

// The host's own copy of the output cap: it holds a leaf to the limit even when nothing in
// the worker did (the worker's copy is tested through the host, in the zoo).
describe('RunStream.capOutput', () => {
  it('keeps output up to the cap across channels, cuts the crossing write on a character, drops the rest, and says so once', () => {
    const forwarded: string[] = [];
    const stream = new RunStream(
      { out: { mimetype: 'text/plain' }, err: { mimetype: 'text/plain' } },
      { write: (_channel, chunk) => void forwarded.push(chunk) },
    );
    let overflows = 0;
    stream.capOutput(8, () => void overflows++);
    stream.write('out', 'abcd');
    stream.write('err', 'é€x');
    stream.write('out', 'more');
    stream.write('err', 'and more');
    expect(stream.channels.out!.text).toBe('abcd');
    expect(stream.channels.err!.text).toBe('é');
    expect(forwarded).toEqual(['abcd', 'é']);
    expect(overflows).toBe(1);
    expect(stream.violations).toEqual([]);
  });

  it('still refuses what is not a string, without counting it', () => {
    const stream = new RunStream({ out: { mimetype: 'text/plain' } });
    stream.capOutput(2, () => {});
    stream.write('out', 12345);
    stream.write('out', 'ok');
    expect(stream.channels.out!.text).toBe('ok');
    expect(stream.violations).toEqual([
      { kind: 'invalid-write', detail: 'write to out: chunk must be a string, received number' },
    ]);
  });

  it('passes an empty write as before', () => {
    const forwarded: string[] = [];
    const stream = new RunStream(
      { out: { mimetype: 'text/plain' } },
      { write: (_channel, chunk) => void forwarded.push(chunk) },
    );
    stream.capOutput(2, () => {});
    stream.write('out', '');
    expect(forwarded).toEqual(['']);
  });
});

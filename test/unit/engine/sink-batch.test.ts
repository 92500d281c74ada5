import { setImmediate as nextTurn } from 'node:timers/promises';
import * as v from 'valibot';
import { describe, expect, it } from 'vitest';
import { EngineMessageSchema, type SinkCall } from '../../../src/engine/engine-protocol.js';
import { SinkBatch, type SinkBatchFrame } from '../../../src/engine/sink-batch.js';

function batcher(maxBytes?: number) {
  const frames: SinkBatchFrame[] = [];
  const batch = new SinkBatch((frame) => void frames.push(frame), maxBytes);
  return { frames, batch };
}

const write = (text: string) => ['write', 'out', text] as SinkCall;
/** The writes a call carries, each chunk its own. */
const chunks = (call: SinkCall) => (call[0] === 'writes' ? call[2] : [call[2]]);

describe('the batch of sink calls the engine forwards', () => {
  it('sends the calls of one turn, every run’s, as one frame in their order at the turn’s end', async () => {
    const { frames, batch } = batcher();
    batch.add(1, write('a'));
    batch.add(2, ['setState', 'out', 'closed']);
    batch.add(1, ['emit', { source: 'exec', kind: 'k', level: 'info' }]);
    expect(frames).toEqual([]);
    await nextTurn();
    expect(frames).toEqual([
      {
        t: 'sinks',
        calls: [
          [1, write('a')],
          [2, ['setState', 'out', 'closed']],
          [1, ['emit', { source: 'exec', kind: 'k', level: 'info' }]],
        ],
      },
    ]);
    batch.add(1, write('b'));
    await nextTurn();
    expect(frames.map((frame) => frame.calls)).toEqual([expect.any(Array), [[1, write('b')]]]);
  });

  it('sends what it holds when flushed (before any other frame), and nothing when empty', async () => {
    const { frames, batch } = batcher();
    batch.flush();
    batch.add(3, write('x'));
    batch.flush();
    expect(frames).toEqual([{ t: 'sinks', calls: [[3, write('x')]] }]);
    await nextTurn();
    expect(frames).toHaveLength(1);
  });

  it('hands over what it holds as a frame to send with another, and then sends nothing at the turn’s end', async () => {
    const { frames, batch } = batcher();
    expect(batch.take()).toBeUndefined();
    batch.add(2, write('y'));
    batch.add(4, write('z'));
    expect(batch.take()).toEqual({
      t: 'sinks',
      calls: [
        [2, write('y')],
        [4, write('z')],
      ],
    });
    expect(batch.take()).toBeUndefined();
    await nextTurn();
    expect(frames).toEqual([]);
  });

  it('splits a turn by bytes, never splitting or reordering a call, and sends a call larger than the bound alone', async () => {
    const { frames, batch } = batcher(1000);
    for (let i = 0; i < 10; i++) batch.add(1, write(`${i}`.padEnd(100, '.')));
    batch.add(1, write('y'.repeat(2000)));
    batch.add(1, write('z'));
    await nextTurn();
    const calls = frames.flatMap((frame) => frame.calls.flatMap(([, call]) => chunks(call)));
    expect(calls).toEqual([...Array.from({ length: 10 }, (_, i) => `${i}`.padEnd(100, '.')), 'y'.repeat(2000), 'z']);
    expect(frames.length).toBeGreaterThan(2);
    expect(frames.find((frame) => frame.calls.some(([, call]) => call[2] === 'y'.repeat(2000)))?.calls).toHaveLength(1);
  });

  it('joins one run’s consecutive plain writes to one channel into one call, each chunk kept', async () => {
    const { frames, batch } = batcher();
    batch.add(1, write('a'));
    batch.add(1, write('b'));
    batch.add(1, write('c'));
    batch.add(2, write('d'));
    batch.add(1, write('e'));
    batch.add(1, ['write', 'err', 'f']);
    batch.add(1, ['write', 'err', 'g', 'application/json']);
    batch.add(1, ['write', 'err', 'h']);
    batch.add(1, ['setState', 'err', 'closed']);
    batch.add(1, ['write', 'err', 'i']);
    await nextTurn();
    expect(frames).toEqual([
      {
        t: 'sinks',
        calls: [
          [1, ['writes', 'out', ['a', 'b', 'c']]],
          [2, write('d')],
          [1, write('e')],
          [1, ['write', 'err', 'f']],
          [1, ['write', 'err', 'g', 'application/json']],
          [1, ['write', 'err', 'h']],
          [1, ['setState', 'err', 'closed']],
          [1, ['write', 'err', 'i']],
        ],
      },
    ]);
    expect(v.safeParse(EngineMessageSchema, frames[0]).success).toBe(true);
    expect(v.safeParse(EngineMessageSchema, { t: 'sinks', calls: [[1, ['writes', 'out', ['a']]]] }).success).toBe(
      false,
    );
  });

  it('is a frame the service accepts; one with a malformed call, a bad run id, or no call is refused whole', () => {
    const ok = {
      t: 'sinks',
      calls: [
        [0, write('a')],
        [4, ['setState', 'out', 'errored']],
      ],
    };
    expect(v.safeParse(EngineMessageSchema, ok).success).toBe(true);
    for (const calls of [
      [
        [0, write('a')],
        [0, ['write', 'out', 42]],
      ],
      [[-1, write('a')]],
      [[0.5, write('a')]],
      [[0, ['exit', 'out']]],
      [[0, write('a'), 'extra']],
      [],
    ])
      expect(v.safeParse(EngineMessageSchema, { t: 'sinks', calls }).success).toBe(false);
  });
});

import { setImmediate as nextTurn } from 'node:timers/promises';
import { describe, expect, it } from 'vitest';
import { AckBatch, type AckFrame } from '../../../src/engine/ack-batch.js';

describe('the acknowledgements an engine sends', () => {
  it('acknowledges the frames of one turn in one frame, in the order they came, at the turn’s end', async () => {
    const frames: AckFrame[] = [];
    const acks = new AckBatch((frame) => void frames.push(frame));
    acks.add(4);
    acks.add(5);
    expect(frames).toEqual([]);
    await nextTurn();
    acks.add(6);
    await nextTurn();
    expect(frames).toEqual([
      { t: 'ack', ids: [4, 5] },
      { t: 'ack', ids: [6] },
    ]);
  });

  it('sends what it holds at once when flushed (before any other frame), and nothing when empty', async () => {
    const frames: AckFrame[] = [];
    const acks = new AckBatch((frame) => void frames.push(frame));
    acks.flush();
    acks.add(1);
    acks.flush();
    await nextTurn();
    expect(frames).toEqual([{ t: 'ack', ids: [1] }]);
  });
});

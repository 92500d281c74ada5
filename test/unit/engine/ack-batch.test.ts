import { describe, expect, it } from 'vitest';
import { AckBatch } from '../../../src/engine/ack-batch.js';

describe('the acknowledgements an engine’s heartbeat carries', () => {
  it('gives the ids read since the last heartbeat, in the order they were read, once', () => {
    const acks = new AckBatch();
    expect(acks.take()).toBeUndefined();
    acks.add(4);
    acks.add(5);
    expect(acks.take()).toEqual([4, 5]);
    expect(acks.take()).toBeUndefined();
    acks.add(6);
    expect(acks.take()).toEqual([6]);
  });
});

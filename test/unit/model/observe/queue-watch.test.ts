import { describe, expect, it } from 'vitest';
import type { RunTrace } from '../../../../src/model/tier.js';
import { QueueWatch } from '../../../../src/model/observe/queue-watch.js';

describe('QueueWatch', () => {
  it('counts the runs of each tag waiting, until each leaves', () => {
    const queue = new QueueWatch();
    const first = queue.enter('sh');
    const second = queue.enter('sh');
    const other = queue.enter('jq');
    expect([queue.count('sh'), queue.count('jq'), queue.count('wat')]).toEqual([2, 1, 0]);
    first();
    other();
    expect([queue.count('sh'), queue.count('jq')]).toEqual([1, 0]);
    second();
    expect(queue.count('sh')).toBe(0);
  });

  it('ends a wait once however often it is left, and writes how long it took into the run’s trace', () => {
    const queue = new QueueWatch();
    const trace: RunTrace = {};
    const leave = queue.enter('sh', trace);
    queue.enter('sh');
    const waited = leave();
    expect(leave()).toBe(waited);
    expect(queue.count('sh')).toBe(1);
    expect(trace.queueMs).toBe(waited);
    expect(waited).toBeGreaterThanOrEqual(0);
  });
});

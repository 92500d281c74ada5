import { describe, expect, it } from 'vitest';
import { SpareBudget, SpareDemand } from '../../../../src/thread-host/threads/spare-demand.js';

/** A demand on a clock the test moves. */
function demand(idleMs: number, initial?: number) {
  let now = 0;
  const tracked = new SpareDemand(idleMs, initial, () => now);
  return { tracked, advance: (ms: number) => void (now += ms) };
}

describe('SpareDemand', () => {
  it('wants one spare at first, for the thread a tag probed with', () => {
    expect(demand(1000).tracked.wanted()).toBe(1);
  });

  it('wants as many spares as the most runs in flight at once', () => {
    const { tracked } = demand(1000);
    for (let i = 0; i < 12; i++) tracked.runStarted();
    for (let i = 0; i < 12; i++) tracked.runEnded();
    tracked.runStarted();
    expect(tracked.wanted()).toBe(12);
  });

  it('wants one spare beside the runs in flight when a run took a spare still starting', () => {
    const { tracked } = demand(1000);
    tracked.runStarted();
    tracked.late();
    expect(tracked.wanted()).toBe(2);
    // Back to back, one run at a time: late spares do not pile up past the runs in flight and one.
    tracked.runEnded();
    tracked.runStarted();
    tracked.late();
    expect(tracked.wanted()).toBe(2);
  });

  it('does not decay while runs at its level are in flight, only from when they ended', () => {
    const { tracked, advance } = demand(1000);
    tracked.runStarted();
    tracked.runStarted();
    advance(5000);
    expect(tracked.wanted()).toBe(2);
    tracked.runEnded();
    advance(999);
    expect(tracked.wanted()).toBe(2);
    advance(1);
    // Halved, but never below the run still in flight.
    expect(tracked.wanted()).toBe(1);
    advance(10_000);
    expect(tracked.wanted()).toBe(1);
    tracked.runEnded();
    advance(1000);
    expect(tracked.wanted()).toBe(0);
  });

  it('halves for every idleMs the peak was not reached again, down to none', () => {
    const { tracked, advance } = demand(1000);
    for (let i = 0; i < 12; i++) tracked.runStarted();
    for (let i = 0; i < 12; i++) tracked.runEnded();
    advance(999);
    expect(tracked.wanted()).toBe(12);
    advance(1);
    expect(tracked.wanted()).toBe(6);
    advance(2000);
    expect(tracked.wanted()).toBe(1);
    advance(1000);
    expect(tracked.wanted()).toBe(0);
    // A run wakes it up again.
    tracked.runStarted();
    expect(tracked.wanted()).toBe(1);
  });

  it('keeps a steady load wanted: reaching the peak again restarts its clock', () => {
    const { tracked, advance } = demand(1000);
    tracked.runStarted();
    tracked.runStarted();
    tracked.runEnded();
    tracked.runEnded();
    for (let i = 0; i < 5; i++) {
      advance(900);
      tracked.runStarted();
      tracked.runStarted();
      tracked.runEnded();
      tracked.runEnded();
    }
    expect(tracked.wanted()).toBe(2);
  });
});

describe('SpareBudget', () => {
  it('lends units up to its max and takes them back', () => {
    const budget = new SpareBudget(2);
    expect([budget.tryTake(), budget.tryTake(), budget.tryTake()]).toEqual([true, true, false]);
    budget.give();
    expect(budget.inUse).toBe(1);
    expect(budget.tryTake()).toBe(true);
  });
});

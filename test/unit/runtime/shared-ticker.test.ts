import { afterEach, describe, expect, it, vi } from 'vitest';
import { SharedTicker } from '../../../src/runtime/shared-ticker.js';

/** How many ref'd timers this thread has: what keeps its event loop alive. */
function heldTimers(): number {
  return process.getActiveResourcesInfo().filter((kind) => kind === 'Timeout').length;
}

describe('SharedTicker', () => {
  afterEach(() => vi.useRealTimers());

  it('calls every watch at each tick on one timer, and a watch no more once it left', () => {
    vi.useFakeTimers();
    const ticker = new SharedTicker(10, true);
    const calls: string[] = [];
    const leaveA = ticker.add(() => calls.push('a'));
    ticker.add(() => calls.push('b'));
    expect(vi.getTimerCount()).toBe(1);
    vi.advanceTimersByTime(10);
    expect(calls).toEqual(['a', 'b']);
    leaveA();
    vi.advanceTimersByTime(10);
    expect(calls).toEqual(['a', 'b', 'b']);
  });

  it('keeps its timer for a watch that comes right after the last left, and stops it at a tick that finds none', () => {
    vi.useFakeTimers();
    const ticker = new SharedTicker(10, true);
    const calls: number[] = [];
    ticker.add(() => calls.push(1))();
    const leave = ticker.add(() => calls.push(2));
    expect(vi.getTimerCount()).toBe(1);
    leave();
    vi.advanceTimersByTime(10);
    expect(vi.getTimerCount()).toBe(0);
    expect(calls).toEqual([]);
    // A later watch starts it again.
    ticker.add(() => calls.push(3));
    vi.advanceTimersByTime(10);
    expect(calls).toEqual([3]);
  });

  it('holds the event loop only while a watch is on it when told to, and never when not', () => {
    const before = heldTimers();
    const holding = new SharedTicker(60_000, true);
    const leave = holding.add(() => {});
    expect(heldTimers()).toBe(before + 1);
    leave();
    // Its timer waits for its next tick to stop, but no longer holds the loop.
    expect(heldTimers()).toBe(before);
    const again = holding.add(() => {});
    expect(heldTimers()).toBe(before + 1);
    again();

    const free = new SharedTicker(60_000, false);
    const leaveFree = free.add(() => {});
    expect(heldTimers()).toBe(before);
    leaveFree();
  });

  it('ticks on the timer functions it was given', () => {
    const started: number[] = [];
    const timers = {
      every: ((callback: () => void, ms: number) => {
        started.push(ms);
        return setInterval(callback, ms);
      }) as typeof setInterval,
      stop: clearInterval,
    };
    const ticker = new SharedTicker(60_000, false, timers);
    ticker.add(() => {})();
    expect(started).toEqual([60_000]);
  });
});

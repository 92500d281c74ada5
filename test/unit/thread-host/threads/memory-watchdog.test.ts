import { afterEach, describe, expect, it, vi } from 'vitest';
import {
  checkReportedMemory,
  HostMemoryWatch,
  type WatchedRun,
} from '../../../../src/thread-host/threads/memory-watchdog.js';

const MB = 1024 * 1024;

function run(footprintMb: number, silentMs = 0): WatchedRun & { killed: string[]; certain: boolean[] } {
  const killed: string[] = [];
  const certain: boolean[] = [];
  return {
    killed,
    certain,
    footprint: () => footprintMb * MB,
    silentFor: () => silentMs,
    kill: (detail, sure) => {
      killed.push(detail);
      certain.push(sure);
    },
  };
}

describe('checkReportedMemory', () => {
  it('passes memory outside the heap up to the limit and names it past the limit', () => {
    expect(checkReportedMemory({ heapUsed: 900 * MB, external: 64 * MB, arrayBuffers: 0 }, 64)).toBeUndefined();
    expect(checkReportedMemory({ heapUsed: 1, external: 65 * MB, arrayBuffers: 40 * MB }, 64)).toBe(
      'the worker thread holds 65 MB outside its JS heap (Buffers, ArrayBuffers, WebAssembly memory: 40 MB in ArrayBuffers), over limits.externalMb 64',
    );
  });
});

describe('HostMemoryWatch', () => {
  afterEach(() => vi.useRealTimers());

  it('does nothing while RSS is under the cap, then ends the run reporting the most', () => {
    vi.useFakeTimers();
    let rss = 100 * MB;
    const watch = new HostMemoryWatch(200, 10, 100, () => rss);
    const small = run(10);
    const big = run(150);
    watch.add(small);
    watch.add(big);
    vi.advanceTimersByTime(50);
    expect(big.killed).toEqual([]);
    rss = 300 * MB;
    vi.advanceTimersByTime(10);
    expect(small.killed).toEqual([]);
    expect(big.killed).toEqual([
      "the host process's resident memory reached 300 MB, over limits.rssMb 200; this run was the likeliest cause of 2 in flight (it reported 150 MB)",
    ]);
    // A guess among several runs: not to be charged to the tag's crash breaker.
    expect(big.certain).toEqual([false]);
  });

  it('prefers a silent thread to any reported size, and waits for its victim to go before judging again', () => {
    vi.useFakeTimers();
    const watch = new HostMemoryWatch(200, 10, 100, () => 300 * MB);
    const big = run(150);
    const silent = run(1, 500);
    watch.add(big);
    const unwatchSilent = watch.add(silent);
    vi.advanceTimersByTime(30);
    expect(silent.killed).toHaveLength(1);
    expect(silent.killed[0]).toMatch(/\(its thread has been silent for 500ms\)$/);
    expect(big.killed).toEqual([]);
    unwatchSilent();
    vi.advanceTimersByTime(10);
    expect(big.killed).toEqual([
      "the host process's resident memory reached 300 MB, over limits.rssMb 200; this run was the only one in flight (it reported 150 MB)",
    ]);
    expect(big.certain).toEqual([true]);
  });

  it('stops its timer at its first tick with no run watched, judging nothing then', () => {
    vi.useFakeTimers();
    const watch = new HostMemoryWatch(200, 10, 100, () => 300 * MB);
    const first = run(1);
    watch.add(first)();
    // A run right after the last one keeps the same timer.
    const next = run(2);
    const unwatch = watch.add(next);
    expect(vi.getTimerCount()).toBe(1);
    unwatch();
    vi.advanceTimersByTime(10);
    expect(vi.getTimerCount()).toBe(0);
    expect([...first.killed, ...next.killed]).toEqual([]);
  });
});

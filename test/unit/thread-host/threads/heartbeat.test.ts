import { afterEach, describe, expect, it, vi } from 'vitest';
import { watchHeartbeat } from '../../../../src/thread-host/threads/heartbeat.js';
import { SharedTicker } from '../../../../src/runtime/shared-ticker.js';

describe('watchHeartbeat', () => {
  afterEach(() => vi.useRealTimers());

  function watch(ackMs = 1000, unresponsiveMs = 300) {
    const silences: string[] = [];
    const heartbeat = watchHeartbeat({
      ackMs,
      unresponsiveMs,
      ticker: new SharedTicker(10, true),
      onSilent: (detail) => void silences.push(detail),
    });
    return { heartbeat, silences };
  }

  it('calls a thread unresponsive once it started and then went silent, exactly once', () => {
    vi.useFakeTimers();
    const { heartbeat, silences } = watch();
    heartbeat.started();
    for (let i = 0; i < 10; i++) {
      vi.advanceTimersByTime(200);
      heartbeat.heard();
    }
    expect(silences).toEqual([]);
    vi.advanceTimersByTime(2000);
    expect(silences).toHaveLength(1);
    expect(silences[0]).toMatch(
      /^the worker thread stopped answering: no heartbeat for 3\d\dms \(limits\.unresponsiveMs 300\)/,
    );
    heartbeat.dispose();
  });

  it('gives a thread that has not started its call the acknowledgement bound, not the silence bound', () => {
    vi.useFakeTimers();
    const { heartbeat, silences } = watch();
    vi.advanceTimersByTime(900);
    expect(silences).toEqual([]);
    vi.advanceTimersByTime(200);
    expect(silences).toEqual([
      'the worker thread did not acknowledge the run within loadTimeoutMs 1000ms (the leaf did not finish loading)',
    ]);
    heartbeat.dispose();
  });

  it('stops watching when disposed, and its ticker stops at the next tick', () => {
    vi.useFakeTimers();
    const { heartbeat, silences } = watch();
    heartbeat.dispose();
    vi.advanceTimersByTime(10);
    expect(vi.getTimerCount()).toBe(0);
    vi.advanceTimersByTime(5000);
    expect(silences).toEqual([]);
  });

  it('watches every run in flight on the host’s one ticker, not a timer each', () => {
    vi.useFakeTimers();
    const ticker = new SharedTicker(10, true);
    const silences: string[] = [];
    const watches = [1, 2, 3].map(() =>
      watchHeartbeat({ ackMs: 50, unresponsiveMs: 300, ticker, onSilent: (detail) => void silences.push(detail) }),
    );
    expect(vi.getTimerCount()).toBe(1);
    watches[0]!.started();
    vi.advanceTimersByTime(60);
    // The two that never started are past their acknowledgement bound; the one that did is not silent yet.
    expect(silences).toHaveLength(2);
    for (const watch of watches) watch.dispose();
  });
});

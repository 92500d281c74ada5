import { afterEach, describe, expect, it, vi } from 'vitest';
import { watchHeartbeat } from '../../../../src/thread-host/threads/heartbeat.js';

describe('watchHeartbeat', () => {
  afterEach(() => vi.useRealTimers());

  function watch(ackMs = 1000, unresponsiveMs = 300) {
    const silences: string[] = [];
    const heartbeat = watchHeartbeat({
      ackMs,
      unresponsiveMs,
      checkEveryMs: 10,
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

  it('stops watching when disposed', () => {
    vi.useFakeTimers();
    const { heartbeat, silences } = watch();
    heartbeat.dispose();
    vi.advanceTimersByTime(5000);
    expect(silences).toEqual([]);
    expect(vi.getTimerCount()).toBe(0);
  });
});

import { setTimeout as sleep } from 'node:timers/promises';
import { describe, expect, it } from 'vitest';
import { watchEngine } from '../../../src/engine/engine-watchdog.js';

/** Keeps this thread's event loop busy for `ms`: the service itself stalled, not its engine. */
function block(ms: number): void {
  const until = Date.now() + ms;
  while (Date.now() < until) {
    // Busy on purpose.
  }
}

describe('the engine watchdog', () => {
  it('reports an engine silent for the bound once, with how long it heard nothing', async () => {
    const silences: number[] = [];
    const watchdog = watchEngine(20, 100, (silent) => void silences.push(silent));
    try {
      while (silences.length === 0) await sleep(20);
      await sleep(100);
      expect(silences).toHaveLength(1);
      expect(silences[0]).toBeGreaterThanOrEqual(100);
    } finally {
      watchdog.stop();
    }
  });

  it('is kept quiet by beats', async () => {
    const silences: number[] = [];
    const watchdog = watchEngine(20, 100, (silent) => void silences.push(silent));
    try {
      for (let i = 0; i < 15; i += 1) {
        watchdog.beat();
        // Each pause is under the bound, however late the timer fires: a late tick counts two periods at most.
        await sleep(20);
      }
      expect(silences).toEqual([]);
    } finally {
      watchdog.stop();
    }
  });

  it('does not mistake a stall of the service’s own event loop for a silent engine', async () => {
    const silences: number[] = [];
    const watchdog = watchEngine(20, 100, (silent) => void silences.push(silent));
    try {
      // The engine's frames would be waiting unread: the first tick after the stall must not fire.
      block(500);
      await sleep(0);
      watchdog.beat();
      expect(silences).toEqual([]);
    } finally {
      watchdog.stop();
    }
  });

  it('keeps the clock of what an engine owes on free time only: a stall counts two periods at most', async () => {
    const ticks: number[] = [];
    const watchdog = watchEngine(
      20,
      10_000,
      () => {},
      (free) => void ticks.push(free),
    );
    try {
      while (ticks.length < 2) await sleep(20);
      block(500);
      const before = watchdog.freeMs();
      while (ticks.length < 4) await sleep(20);
      // The tick after the stall added 40 ms at most, not 500.
      expect(watchdog.freeMs() - before).toBeLessThan(200);
      expect(ticks).toEqual([...ticks].sort((a, b) => a - b));
      expect(ticks.at(-1)).toBe(watchdog.freeMs());
    } finally {
      watchdog.stop();
    }
  });
});

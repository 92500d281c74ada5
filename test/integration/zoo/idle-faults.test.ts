import { afterEach, describe, expect, it } from 'vitest';
import { createHost } from '../../../src/host/index.js';
import { watchHostErrors, zooDirs } from '../../helpers/zoo.js';
import { tierOptions } from '../../helpers/tier.js';

// An idle thread — a warm spare, or one waiting for its next run — has no task, so the
// heartbeat and the run guard see nothing. The host samples idle threads' event-loop
// utilisation and retires one that keeps busy, counting it against the tag's breaker.
describe('the zoo: idle threads doing work', () => {
  const hostErrors = watchHostErrors();
  afterEach(() => expect(hostErrors.errors).toEqual([]));

  it('retires a spare whose event loop stays busy with no run in flight, and counts it as a crash', async () => {
    const host = await createHost({
      ...tierOptions(),
      packageDirs: zooDirs('busy-while-idle', 'healthy'),
      breaker: { crashes: 1, windowMs: 600_000, cooldownMs: 600_000 },
    });
    try {
      // The probe's thread is the tag's warm spare: nothing runs in it, yet its loop spins. The
      // process tier's availability() is the engine's as of its last heartbeat that carried a state.
      const degraded = await waitFor(async () => host.availability('busy-while-idle')?.degraded);
      expect(degraded?.reason).toMatch(/an idle thread kept its event loop \d+% busy with no task in flight/);
      expect((await host.exec({ runtime: 'busy-while-idle', body: 'x' })).result.status).toBe(503);
      expect((await host.exec({ runtime: 'healthy', body: 'after' })).result).toEqual({ status: 200 });
      // A healthy tag's idle spare is left alone.
      expect(host.availability('healthy')?.degraded).toBeUndefined();
    } finally {
      await host.close();
    }
  });
});

/** Polls `probe` until it answers something, up to 300 times 50 ms apart; undefined when it never did. */
async function waitFor<T>(probe: () => Promise<T | undefined>): Promise<T | undefined> {
  for (let i = 0; i < 300; i++) {
    const value = await probe();
    if (value !== undefined) return value;
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  return undefined;
}

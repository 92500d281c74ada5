import { rmSync } from 'node:fs';
import { createServer, type Socket } from 'node:net';
import { join } from 'node:path';
import { afterAll, afterEach, describe, expect, it, vi } from 'vitest';
import { CrashBreaker } from '../../../src/model/crash-breaker.js';
import { createHost } from '../../../src/host/index.js';
import { handshake } from '../../helpers/handshake.js';
import { scratchDir } from '../../helpers/scratch.js';
import { watchHostErrors, zooDirs } from '../../helpers/zoo.js';
import { TIER, tierOptions } from '../../helpers/tier.js';

/** A socket server the leaf connects to; `fire()` makes the leaf's callback throw. */
async function trigger(): Promise<{ path: string; connected: Promise<Socket>; close(): void }> {
  const path = join(scratchDir('zoo-trigger'), 'trigger.sock');
  const connected = handshake<Socket>();
  const server = createServer((socket) => connected.resolve(socket));
  await new Promise<void>((resolve) => server.listen(path, resolve));
  return {
    path,
    connected: connected.promise,
    close: () => {
      server.close();
      rmSync(path, { force: true });
    },
  };
}

// An error that escapes a leaf while its thread is idle — from a callback it left behind after
// run() resolved — belongs to no run: the run's own result stands, the crash is counted, the
// thread is retired, and the next run is clean. Under 'each-run' the thread is gone before any
// callback fires, so the thread is kept ('never'), as a service that reuses threads would.
// In the thread tier the crash is seen where the breaker records it (a spy); in the process
// tier the breaker is the engine's, so the crash is seen as the leaf's thread ending (its
// socket closes right after the breaker counted it) and the count as the tag's degradation,
// which the engine reports with its next answer.
describe('the zoo: an error that escapes between runs', () => {
  const hostErrors = watchHostErrors();
  afterEach(() => {
    vi.restoreAllMocks();
    expect(hostErrors.errors).toEqual([]);
  });
  afterAll(() => hostErrors.dispose());

  it('counts the crash, blames no run, retires the thread, and runs the next run clean', async () => {
    // The crash count is observed where the host records it: a spy that calls the real breaker through.
    const counted = [handshake<string>(), handshake<string>()];
    let crashes = 0;
    const record = CrashBreaker.prototype.record;
    vi.spyOn(CrashBreaker.prototype, 'record').mockImplementation(function (this: CrashBreaker, tag, reason) {
      record.call(this, tag, reason);
      counted[crashes++]?.resolve(`${tag}: ${reason}`);
    });
    const host = await createHost({
      ...tierOptions(),
      packageDirs: zooDirs('healthy', 'escapes-between-runs'),
      recycle: 'never',
      breaker: { crashes: 2, windowMs: 600_000, cooldownMs: 600_000 },
    });
    /** Resolves once the crash `n` was counted: the spy in this process, or the leaf's thread ending in the engine. */
    const crashCounted = async (n: number, connection: Socket) => {
      if (TIER === 'thread') return counted[n]!.promise;
      await new Promise((resolve) => connection.once('close', resolve));
      return undefined;
    };
    const socket = await trigger();
    try {
      const faulty = await host.exec({
        runtime: 'escapes-between-runs',
        body: 'fault',
        env: { ...process.env, ZOO_TRIGGER: socket.path },
      });
      // The run ended before anything escaped: its own result stands, nothing forced.
      expect(faulty.result).toEqual({ status: 200 });
      expect(faulty.containment?.forcedEnd).toBeNull();
      expect(faulty.violations).toEqual([]);
      const faultyThread = /before the fault in thread (\d+)$/.exec(faulty.channels.out!.text)?.[1];
      expect(faultyThread).toBeDefined();

      // Now, with no run in flight, the leaf's callback throws.
      const connection = await socket.connected;
      connection.write('throw now');
      const first = await crashCounted(0, connection);
      if (TIER === 'thread')
        expect(first).toBe(
          'escapes-between-runs: an error escaped the leaf between calls: Error: uncaught-exception: thrown from a callback after run() resolved',
        );
      // One crash is below the breaker's two: the tag still runs, in a new thread ('never' would reuse the old one).
      expect(host.availability('escapes-between-runs')?.degraded).toBeUndefined();
      const next = await host.exec({ runtime: 'escapes-between-runs', body: 'ok' });
      expect(next.result).toEqual({ status: 200 });
      expect(next.violations).toEqual([]);
      expect(next.containment?.forcedEnd).toBeNull();
      const nextThread = /^ok in thread (\d+)$/.exec(next.channels.out!.text)?.[1];
      expect(nextThread).toBeDefined();
      expect(nextThread).not.toBe(faultyThread);
      expect((await host.exec({ runtime: 'healthy', body: 'after' })).result).toEqual({ status: 200 });

      // The crash was counted by the breaker itself: a second one degrades the tag.
      const second = await trigger();
      try {
        await host.exec({
          runtime: 'escapes-between-runs',
          body: 'fault',
          env: { ...process.env, ZOO_TRIGGER: second.path },
        });
        const again = await second.connected;
        again.write('throw now');
        await crashCounted(1, again);
        // The process tier's availability() is the engine's as of its last frame that carried a
        // state: its next heartbeat brings it.
        if (TIER === 'process') await waitFor(() => host.availability('escapes-between-runs')?.degraded);
        expect(host.availability('escapes-between-runs')?.degraded).toMatchObject({
          crashes: 2,
          reason: expect.stringMatching(/^an error escaped the leaf between calls: /),
        });
      } finally {
        second.close();
      }
    } finally {
      socket.close();
      await host.close();
    }
  });
});

/** Polls `look` until it answers something, up to 200 times 50 ms apart (the engine's heartbeat is 250 ms). */
async function waitFor<T>(look: () => T | undefined): Promise<T | undefined> {
  for (let i = 0; i < 200; i++) {
    const value = look();
    if (value !== undefined) return value;
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  return undefined;
}

import { execFileSync } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { constants, closeSync, mkdtempSync, openSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { createHost } from '../../../src/host/index.js';
import { survivors, survivorsAfter } from '../../helpers/survivors.js';
import { watchHostErrors, zooDirs } from '../../helpers/zoo.js';
import { TIER, tierOptions } from '../../helpers/tier.js';
import { enginePids } from '../../helpers/engine-pids.js';

/** Opens `fifo` for writing without blocking, which releases every reader blocked opening it; false when none is. */
function releaseFifo(fifo: string): boolean {
  try {
    closeSync(openSync(fifo, constants.O_WRONLY | constants.O_NONBLOCK));
    return true;
  } catch {
    return false;
  }
}

// What close() must still do when a leaf made it hard: reap every group its threads reported,
// even while warming up, and settle even when a thread cannot be terminated.
describe('the zoo: close()', () => {
  const hostErrors = watchHostErrors();
  afterEach(() => {
    expect(hostErrors.errors).toEqual([]);
  });

  it('reaps a child a new spare started at import, reported during its warm-up', async () => {
    const marker = randomUUID();
    // The threads' environment is the host process's (less secrets), so the leaf's import-time child carries ZOO_RUN.
    process.env.ZOO_RUN = marker;
    // The thread tier only: the child carries ZOO_RUN from this process's environment, which an
    // engine's built environment never holds; the process tier's close() is test/integration/engine's.
    const host = await createHost({
      isolation: 'thread',
      packageDirs: zooDirs('starts-child-at-import'),
      breaker: { crashes: 1000 },
      limits: { graceMs: 300 },
    }).finally(() => delete process.env.ZOO_RUN);
    try {
      // The probe's thread is the first spare; the run that takes it starts a new one, which imports the leaf.
      expect((await host.exec({ runtime: 'starts-child-at-import', body: 'x' })).result).toEqual({ status: 200 });
      const spareChild = await waitForMarked(marker);
      // The next run takes that spare and retires it: the child it started at import goes with it.
      expect((await host.exec({ runtime: 'starts-child-at-import', body: 'x' })).result).toEqual({ status: 200 });
      await host.close();
      expect(await survivorsAfter([spareChild, { marker }])).toEqual([]);
    } finally {
      await host.close();
      for (const { pid } of survivors({ marker })) process.kill(pid, 'SIGKILL');
    }
  });

  it('settles though a thread is blocked in the kernel opening a FIFO, and the run settles too', async () => {
    const fifo = join(mkdtempSync(join(tmpdir(), 'close-faults-')), 'fifo');
    execFileSync('mkfifo', [fifo]);
    const host = await createHost({
      ...tierOptions(),
      packageDirs: zooDirs('blocks-opening-fifo', 'healthy'),
      breaker: { crashes: 1000 },
      limits: { graceMs: 300 },
    });
    try {
      const out = await host.exec({ runtime: 'blocks-opening-fifo', body: fifo, timeoutMs: 500 });
      expect(out.result.status).toBe(504);
      expect(out.channels.out!.text).toBe('opening');
      expect(out.containment?.forcedEnd).toEqual({ reason: 'timeout', terminated: true });
      expect((await host.exec({ runtime: 'healthy', body: 'after' })).result).toEqual({ status: 200 });
      // Before the fix close() awaited the blocked thread's termination, forever.
      await host.close();
    } finally {
      // The thread is still blocked: let it go, so this process can exit. In the process tier it
      // was the engine's, and close() ended the engine with it: it may be gone already.
      const released = releaseFifo(fifo);
      if (TIER === 'thread') expect(released).toBe(true);
      await host.close();
    }
    if (TIER === 'process') expect(enginePids().all).toEqual([]);
  });
});

/** The first living process carrying ZOO_RUN=`marker`, waiting up to 10 s for one to start. */
async function waitForMarked(marker: string): Promise<number> {
  for (let i = 0; i < 400; i++) {
    const [found] = survivors({ marker });
    if (found !== undefined) return found.pid;
    await new Promise((resolve) => setTimeout(resolve, 25));
  }
  throw new Error(`no process with ZOO_RUN=${marker} started`);
}

import { getEventListeners } from 'node:events';
import { rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, afterEach, describe, expect, it } from 'vitest';
import { bootHost, type Host, type HostOptions } from '../../../src/host/index.js';
import { fixtureDiscovery } from '../../helpers/fixture-discovery.js';
import { scratchDir } from '../../helpers/scratch.js';

// The `slow` fixture's import blocks while this file exists: a thread whose leaf is loading
// holds the host's only start slot for as long as a test keeps the gate closed.
const GATE = join(scratchDir('admission'), 'gate');
const previous = process.env.EXEC_LOAD_GATE;
process.env.EXEC_LOAD_GATE = GATE;
afterAll(() => {
  if (previous === undefined) delete process.env.EXEC_LOAD_GATE;
  else process.env.EXEC_LOAD_GATE = previous;
});

const closeGate = () => writeFileSync(GATE, '');
const openGate = () => rmSync(GATE, { force: true });

let host: Host | undefined;
afterEach(async () => {
  openGate();
  await host?.close();
  host = undefined;
});

/** A host of the `slow` and `echo` fixtures whose threads start one at a time. */
async function boot(options: HostOptions = {}): Promise<Host> {
  host = await bootHost(fixtureDiscovery(['exec-loads-slowly', 'exec-echo']), {
    limits: { graceMs: 500 },
    ...options,
    admission: { threadStarts: 1, ...options.admission },
  });
  return host;
}

/**
 * With the gate closed: a run that takes the probe's idle thread and waits (`hold`), then a
 * run whose new thread blocks in its import, holding the only start slot. A third run must queue.
 */
function occupy(booted: Host) {
  closeGate();
  const holding = booted.exec({ runtime: 'slow', body: 'hold' });
  const loading = booted.exec({ runtime: 'slow', body: 'x' });
  return { holding, loading };
}

// Issue 17: load is held in the host's queue, and never blamed on a leaf.
describe('admission', () => {
  it('settles a queued run 499 when its signal aborts, without waiting for a thread', async () => {
    const booted = await boot();
    const { holding, loading } = occupy(booted);
    const controller = new AbortController();
    const queued = booted.exec({ runtime: 'slow', body: 'x', signal: controller.signal });
    controller.abort(new Error('the service gave up'));
    // It settles while the only start slot is still held by a load that cannot end: no thread was its.
    const out = await queued;
    expect(out.outcome).toBe('cancelled');
    expect(out.result.status).toBe(499);
    expect(out.result.problem?.detail).toMatch(/aborted while it waited for a thread; none was started/);
    expect(out.containment).toBeUndefined();
    openGate();
    expect((await holding).outcome).toBe('ok');
    expect((await loading).outcome).toBe('ok');
  });

  it("fails a run 503 host-overloaded after admission.queueTimeoutMs, and never charges the leaf's tag", async () => {
    const booted = await boot({ admission: { queueTimeoutMs: 200 } });
    const { holding, loading } = occupy(booted);
    const out = await booted.exec({ runtime: 'slow', body: 'x' });
    expect(out.outcome).toBe('refused');
    expect(out.result.status).toBe(503);
    expect(out.result.problem?.type).toMatch(/host-overloaded$/);
    expect(out.result.problem?.detail).toMatch(/admission\.queueTimeoutMs 200ms/);
    expect(booted.availability('slow')?.degraded).toBeUndefined();
    openGate();
    expect((await holding).result.status).toBe(200);
    expect((await loading).result.status).toBe(200);
  });

  it('starts the load deadline when the thread starts, not while the run waited in the queue', async () => {
    const booted = await boot({ loadTimeoutMs: 1500 });
    const { holding, loading } = occupy(booted);
    const queued = booted.exec({ runtime: 'slow', body: 'x' });
    // The blocked import is its own leaf's fault: it overran loadTimeoutMs in its own thread.
    const overran = await loading;
    expect(overran.result.problem?.detail).toMatch(/did not load within loadTimeoutMs 1500ms/);
    openGate();
    // The queued run waited longer than loadTimeoutMs for its thread, then loaded at once.
    const out = await queued;
    expect(out.outcome).toBe('ok');
    expect(out.channels.out?.text).toBe('ok');
    expect((await holding).outcome).toBe('ok');
  });

  it('keeps one abort listener on a signal many runs share, and prints no warning', async () => {
    const booted = await boot();
    const warnings: Error[] = [];
    const onWarning = (warning: Error) => warnings.push(warning);
    process.on('warning', onWarning);
    try {
      const shared = new AbortController();
      const listeners = new Set<number>();
      const sample = setInterval(() => listeners.add(getEventListeners(shared.signal, 'abort').length), 1);
      const runs = Array.from({ length: 24 }, () =>
        booted.exec({ runtime: 'echo', body: 'hi', signal: shared.signal }),
      );
      const outs = await Promise.all(runs);
      clearInterval(sample);
      expect(outs.map((out) => out.outcome)).toEqual(runs.map(() => 'ok'));
      // Sampled while the runs were queued and in flight: a listener per run would count up to 24.
      expect(Math.max(...listeners)).toBeLessThanOrEqual(1);
      expect(getEventListeners(shared.signal, 'abort')).toHaveLength(0);
      // A warning is emitted on the next tick after the listener that crossed the limit.
      await new Promise((resolve) => setImmediate(resolve));
      expect(warnings.map((warning) => `${warning.name}: ${warning.message}`)).toEqual([]);
    } finally {
      process.off('warning', onWarning);
    }
  });
});

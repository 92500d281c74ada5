import { afterAll, afterEach, describe, expect, it } from 'vitest';
import { createHost, type Host } from '../../../src/host/index.js';
import { until } from '../../helpers/processes.js';
import { watchHostErrors, zooDirs } from '../../helpers/zoo.js';

// The crash-loop breaker: a tag whose threads crashed `crashes` times within `windowMs` fails
// fast with 503 runtime-degraded until `cooldownMs` passed. Small injected values, no clocks.
describe('the crash-loop breaker', () => {
  const hostErrors = watchHostErrors();
  const hosts: Host[] = [];
  const boot = async (options: Parameters<typeof createHost>[0]) => {
    const host = await createHost(options);
    hosts.push(host);
    return host;
  };
  afterEach(() => expect(hostErrors.errors).toEqual([]));
  afterAll(async () => {
    await Promise.all(hosts.map((host) => host.close()));
    hostErrors.dispose();
  });

  it('degrades a tag after three crashes: exec fast-fails 503 with the last crash, other tags unaffected', async () => {
    const host = await boot({
      packageDirs: zooDirs('healthy', 'run-exits'),
      breaker: { crashes: 3, windowMs: 600_000, cooldownMs: 600_000 },
    });
    for (let crash = 1; crash <= 3; crash++) {
      expect(host.availability('run-exits')?.degraded).toBeUndefined();
      // A clean run between crashes does not forgive them: the window counts crashes only.
      if (crash > 1) expect((await host.exec({ runtime: 'run-exits', body: 'ok' })).result).toEqual({ status: 200 });
      const out = await host.exec({ runtime: 'run-exits', body: 'fault' });
      expect(out.result.problem?.detail).toBe(
        'the worker thread died during run(): the worker thread exited with code 3',
      );
    }
    const degraded = await host.exec({ runtime: 'run-exits', body: 'ok' });
    expect(degraded.effect).toBeNull();
    expect(degraded.channels).toEqual({});
    expect(degraded.result.problem).toMatchObject({
      type: 'https://problems.plurnk.xyz/scheme/exec/runtime-degraded',
      status: 503,
      lastCrash: 'the worker thread exited with code 3',
    });
    expect(degraded.result.problem?.detail).toMatch(
      /^runtime run-exits is degraded: its worker threads crashed 3 time\(s\) within the breaker window; it may run again in \d+ms\. Last crash: the worker thread exited with code 3$/,
    );
    // retryAfterMs says, as a number, what the detail says: the rest of the cool-down.
    const retryAfterMs = (degraded.result.problem as { retryAfterMs?: unknown }).retryAfterMs;
    expect(retryAfterMs).toEqual(expect.any(Number));
    expect(retryAfterMs).toBeGreaterThan(0);
    expect(retryAfterMs).toBeLessThanOrEqual(600_000);
    expect(degraded.result.problem?.detail).toContain(`it may run again in ${retryAfterMs as number}ms`);
    expect(host.availability('run-exits')).toMatchObject({
      available: true,
      degraded: { reason: 'the worker thread exited with code 3', crashes: 3 },
    });
    expect((await host.exec({ runtime: 'healthy', body: 'still here' })).result).toEqual({ status: 200 });
  });

  it('does not charge a tag for an RSS kill that was a guess among several runs in flight', async () => {
    // rssMb 1: the host is always over, so every run in flight is ended in turn. With two in
    // flight the first kill is a guess and is not a crash; the second, alone, is.
    const host = await boot({
      packageDirs: zooDirs('healthy', 'run-never-settles'),
      recycle: 'never',
      breaker: { crashes: 2, windowMs: 600_000, cooldownMs: 600_000 },
      limits: { rssMb: 1, heartbeatMs: 1000, graceMs: 300 },
    });
    // Two threads that already ran, so both runs below start at once, well within one check.
    const ok = () => host.exec({ runtime: 'run-never-settles', body: 'ok' });
    expect((await Promise.all([ok(), ok()])).map((out) => out.result.status)).toEqual([200, 200]);
    const outs = await Promise.all([1, 2].map(() => host.exec({ runtime: 'run-never-settles', body: 'fault' })));
    const details = outs.map((out) => out.result.problem?.detail ?? '');
    expect(details).toHaveLength(2);
    expect(details).toEqual(
      expect.arrayContaining([
        expect.stringMatching(/this run was the likeliest cause of 2 in flight/),
        expect.stringMatching(/this run was the only one in flight/),
      ]),
    );
    expect(outs.every((out) => out.result.problem?.type.endsWith('/exec/memory-limit-exceeded'))).toBe(true);
    expect(host.availability('run-never-settles')?.degraded).toBeUndefined();
  });

  it('counts every way a thread can crash — an escaped error, a memory limit, a silent thread — but not an ordinary failure', async () => {
    const host = await boot({
      packageDirs: zooDirs('healthy', 'run-throws', 'late-uncaught-exception', 'buffer-bomb', 'run-spins'),
      breaker: { crashes: 2, windowMs: 600_000, cooldownMs: 600_000 },
      limits: { externalMb: 32, heartbeatMs: 50, unresponsiveMs: 1500, graceMs: 300 },
    });
    for (let i = 0; i < 3; i++)
      expect((await host.exec({ runtime: 'run-throws', body: 'fault' })).result.status).toBe(500);
    expect(host.availability('run-throws')?.degraded).toBeUndefined();

    for (const runtime of ['late-uncaught-exception', 'buffer-bomb', 'run-spins']) {
      const first = await host.exec({ runtime, body: 'fault' });
      expect(first.result.status).toBe(500);
      expect(host.availability(runtime)?.degraded).toBeUndefined();
      const second = await host.exec({ runtime, body: 'fault' });
      expect(host.availability(runtime)?.degraded?.reason).toBe(second.result.problem?.detail);
      expect((await host.exec({ runtime, body: 'ok' })).result.problem?.type).toBe(
        'https://problems.plurnk.xyz/scheme/exec/runtime-degraded',
      );
    }
  });

  it('lets a degraded tag run again once the cool-down passed', async () => {
    const host = await boot({ packageDirs: zooDirs('healthy', 'run-exits'), breaker: { crashes: 1, cooldownMs: 300 } });
    expect((await host.exec({ runtime: 'run-exits', body: 'fault' })).result.status).toBe(500);
    await until(() => host.availability('run-exits')?.degraded === undefined, 'the cool-down to pass');
    const next = await host.exec({ runtime: 'run-exits', body: 'ok' });
    expect(next.result).toEqual({ status: 200 });
    expect(next.channels.out!.text).toBe('ok');
  });
});

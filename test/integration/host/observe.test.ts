import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createHost, OUTCOME_CLASSES, type Host, type HostStats, type OutcomeClass } from '../../../src/host/index.js';
import { handshake } from '../../helpers/handshake.js';
import { observeEachTest } from '../../helpers/observed.js';
import { until } from '../../helpers/processes.js';
import { zooDirs } from '../../helpers/zoo.js';

/** Every outcome class at zero but those given. */
function outcomes(counts: Partial<Record<OutcomeClass, number>>): Record<OutcomeClass, number> {
  return Object.fromEntries(OUTCOME_CLASSES.map((outcome) => [outcome, counts[outcome] ?? 0])) as Record<
    OutcomeClass,
    number
  >;
}

// What a service sees of its host without reading a log (issue 27): `host.stats()` and the
// events on node:diagnostics_channel, the same in both tiers — the process tier's thread facts
// come from its engine, over the wire.
describe.each(['thread', 'process'] as const)('observing the host, %s tier', (isolation) => {
  const observed = observeEachTest();

  describe('one host through a known sequence of runs', () => {
    let host: Host;
    beforeAll(async () => {
      host = await createHost({
        isolation,
        packageDirs: zooDirs('healthy', 'writes-undeclared', 'run-throws', 'run-never-settles'),
        limits: { graceMs: 300 },
      });
    });
    afterAll(() => host.close());

    it('counts every run by outcome and tag, with its latency, queue wait and violations', async () => {
      const statuses = [];
      for (let i = 0; i < 3; i++) statuses.push((await host.exec({ runtime: 'healthy', body: `run ${i}` })).outcome);
      statuses.push((await host.exec({ runtime: 'run-throws', body: 'fault' })).outcome);
      statuses.push((await host.exec({ runtime: 'writes-undeclared', body: 'fault' })).outcome);
      statuses.push((await host.exec({ runtime: 'healthy', body: '' })).outcome);
      statuses.push((await host.exec({ runtime: 'no-such-tag', body: 'x' })).outcome);
      expect(statuses).toEqual(['ok', 'ok', 'ok', 'leaf-fault', 'ok', 'refused', 'refused']);
      // One run still in flight when the snapshot is taken: it wrote, and will never settle by itself.
      const controller = new AbortController();
      const wrote = handshake();
      const hanging = host.exec({
        runtime: 'run-never-settles',
        body: 'fault',
        signal: controller.signal,
        sinks: { write: () => wrote.resolve() },
      });
      await wrote.promise;

      const stats = await host.stats();
      expect(stats.tier).toBe(isolation);
      expect(Date.parse(stats.since)).toBeLessThanOrEqual(Date.now());
      expect(stats.runs).toEqual({
        byOutcome: outcomes({ ok: 4, 'leaf-fault': 1, refused: 2 }),
        inFlight: 1,
        waiting: 0,
      });
      // A runtime nobody registered counts host-wide only.
      expect(Object.keys(stats.tags).sort()).toEqual([
        'healthy',
        'run-never-settles',
        'run-throws',
        'writes-undeclared',
      ]);
      const healthy = stats.tags.healthy!;
      expect(healthy.runs).toEqual({ byOutcome: outcomes({ ok: 3, refused: 1 }), inFlight: 0, waiting: 0 });
      // The refused run answered at admission: it is counted, but took no part in latency or queue wait.
      expect(healthy.latencyMs.count).toBe(3);
      expect(healthy.queueWaitMs.count).toBe(3);
      expect(healthy.latencyMs.p50).toBeGreaterThan(0);
      expect(healthy.latencyMs.p99).toBeGreaterThanOrEqual(healthy.latencyMs.p50!);
      expect(healthy.latencyMs.max).toBeGreaterThanOrEqual(healthy.latencyMs.p99!);
      expect(healthy.violations).toEqual({});
      expect(stats.tags['writes-undeclared']!.violations).toEqual({ 'undeclared-channel': 2 });
      expect(stats.tags['run-throws']).toMatchObject({
        runs: { byOutcome: outcomes({ 'leaf-fault': 1 }) },
        // A throw is an ordinary failure, not a crash.
        crashes: 0,
        breaker: { state: 'closed', crashes: 0, retryInMs: null, retryAt: null, lastCrash: null },
      });
      expect(stats.tags['run-never-settles']!.runs.inFlight).toBe(1);
      expect(stats.tags['run-never-settles']!.threads).toMatchObject({ busy: 1 });
      for (const tag of Object.values(stats.tags))
        expect(Object.keys(tag.threads!).sort()).toEqual(['busy', 'idle', 'retiring', 'spares', 'starting']);
      expectEngines(stats, host);
      // A snapshot is plain JSON.
      expect(JSON.parse(JSON.stringify(stats))).toEqual(stats);

      controller.abort();
      expect((await hanging).outcome).toBe('cancelled');
      const after = await host.stats();
      expect(after.runs.inFlight).toBe(0);
      expect(after.tags['run-never-settles']!.runs.byOutcome.cancelled).toBe(1);
    });

    it('traces an EXEC on one context: start, end, asyncStart, asyncEnd, each plain data', async () => {
      const out = await host.exec({ runtime: 'healthy', body: 'traced', address: { loop: 1, turn: 2, sequence: 3 } });
      const traced = observed().seen.filter((entry) => entry.channel.startsWith('exec:'));
      expect(traced.map((entry) => entry.channel)).toEqual([
        'exec:start',
        'exec:end',
        'exec:asyncStart',
        'exec:asyncEnd',
      ]);
      expect(traced[0]!.payload).toEqual({ runtime: 'healthy', address: 'healthy:///1/2/3' });
      const done = traced[3]!.payload as { result: { durationMs: number; queueMs: number } };
      expect(done).toEqual({
        runtime: 'healthy',
        address: out.address,
        result: { outcome: 'ok', status: 200, durationMs: expect.any(Number), queueMs: expect.any(Number) },
      });
      expect(done.result.queueMs).toBeLessThanOrEqual(done.result.durationMs);
      // One context object, filled in as the EXEC went.
      expect(observed().contexts).toHaveLength(1);
    });

    it('traces an effect call, and the error of one the host refuses', async () => {
      expect(await host.effect('healthy', 'some target')).toBe('pure');
      await expect(host.effect('no-such-tag', null)).rejects.toMatchObject({ code: 'runtime-unavailable' });
      const traced = observed().seen.filter((entry) => entry.channel.startsWith('effect:'));
      expect(traced.map((entry) => entry.channel)).toEqual([
        'effect:start',
        'effect:end',
        'effect:asyncStart',
        'effect:asyncEnd',
        'effect:start',
        'effect:end',
        'effect:error',
        'effect:asyncStart',
        'effect:asyncEnd',
      ]);
      expect(traced[3]!.payload).toEqual({
        runtime: 'healthy',
        target: 'some target',
        result: { effect: 'pure', durationMs: expect.any(Number) },
      });
      expect(traced[6]!.payload).toMatchObject({
        runtime: 'no-such-tag',
        target: null,
        error: { name: 'PlurnkExecsError', code: 'runtime-unavailable', message: expect.stringMatching(/no-such-tag/) },
      });
    });

    it('publishes each violation of an outcome with its kind and tag, and the thread retired after the run', async () => {
      const out = await host.exec({
        runtime: 'writes-undeclared',
        body: 'fault',
        address: { loop: 4, turn: 5, sequence: 6 },
      });
      expect(observed().of('plurnk-execs:violation')).toEqual(
        out.violations.map(({ kind, detail }) => ({ tag: 'writes-undeclared', kind, address: out.address, detail })),
      );
      expect(out.violations.map((violation) => violation.kind)).toEqual(['undeclared-channel', 'undeclared-channel']);
      await until(() => observed().of('plurnk-execs:thread:retired').length > 0, 'the thread to be retired');
      expect(observed().of('plurnk-execs:thread:retired')).toEqual([
        { tag: 'writes-undeclared', threadId: expect.any(Number), why: 'recycled', detail: null, runs: 1 },
      ]);
    });
  });

  it('publishes a crashed thread, its degraded tag, and the tag restored after the cool-down; stats() follows the breaker', async () => {
    const host = await createHost({
      isolation,
      packageDirs: zooDirs('healthy', 'run-exits'),
      breaker: { crashes: 1, windowMs: 600_000, cooldownMs: 500 },
    });
    try {
      const crash = await host.exec({ runtime: 'run-exits', body: 'fault' });
      expect(crash.outcome).toBe('leaf-fault');
      await until(() => observed().of('plurnk-execs:thread:retired').length > 0, 'the crashed thread to be retired');
      expect(observed().of('plurnk-execs:thread:retired')).toEqual([
        {
          tag: 'run-exits',
          threadId: expect.any(Number),
          why: 'crashed',
          detail: 'the worker thread exited with code 3',
          runs: 1,
        },
      ]);
      expect(observed().of('plurnk-execs:tag:degraded')).toEqual([
        { tag: 'run-exits', crashes: 1, reason: 'the worker thread exited with code 3', retryInMs: 500 },
      ]);
      const open = (await host.stats()).tags['run-exits']!;
      expect(open.crashes).toBe(1);
      expect(open.breaker).toMatchObject({
        state: 'open',
        crashes: 1,
        retryInMs: expect.any(Number),
        lastCrash: 'the worker thread exited with code 3',
      });
      expect(Date.parse(open.breaker.retryAt!)).toBeGreaterThan(Date.now() - 1000);
      expect((await host.exec({ runtime: 'run-exits', body: 'ok' })).result.status).toBe(503);
      expect(observed().of('plurnk-execs:tag:restored')).toEqual([]);

      await until(() => host.availability('run-exits')?.degraded === undefined, 'the cool-down to pass');
      expect((await host.stats()).tags['run-exits']!.breaker.state).toBe('probation');
      expect((await host.exec({ runtime: 'run-exits', body: 'ok' })).result.status).toBe(200);
      expect(observed().of('plurnk-execs:tag:restored')).toEqual([{ tag: 'run-exits' }]);
      const closed = (await host.stats()).tags['run-exits']!;
      expect(closed.breaker).toEqual({
        state: 'closed',
        crashes: 0,
        retryInMs: null,
        retryAt: null,
        lastCrash: 'the worker thread exited with code 3',
      });
      expect(closed.runs.byOutcome).toEqual(outcomes({ 'leaf-fault': 1, refused: 1, ok: 1 }));
    } finally {
      await host.close();
    }
  });
});

/** The engines a snapshot lists: none in the thread tier, the one engine with every package in the process tier. */
function expectEngines(stats: HostStats, host: Host): void {
  if (stats.tier === 'thread') return void expect(stats.engines).toEqual([]);
  const { pidNamespace, permissionModel } = host.isolation();
  expect(stats.engines).toEqual([
    {
      pid: expect.any(Number),
      packages: ['zoo-healthy', 'zoo-run-never-settles', 'zoo-run-throws', 'zoo-writes-undeclared'],
      state: 'running',
      startedAt: expect.any(String),
      uptimeMs: expect.any(Number),
      restarts: 0,
      lastCrash: null,
      rssBytes: expect.any(Number),
      containment: { pidNamespace, permissionModel },
    },
  ]);
  expect(stats.engines[0]!.rssBytes).toBeGreaterThan(1024 * 1024);
}

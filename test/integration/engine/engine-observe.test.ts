import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { createHost, type EngineCrashEvent, type EngineStartEvent } from '../../../src/host/index.js';
import { handshake } from '../../helpers/handshake.js';
import { observeEachTest } from '../../helpers/observed.js';
import { until } from '../../helpers/processes.js';
import { zooDirs } from '../../helpers/zoo.js';

const FIXTURES = fileURLToPath(new URL('../../../fixtures/engine', import.meta.url));

// The process tier's own events (issue 27): an engine's boot, death, restart and silence, as a
// service subscribed to node:diagnostics_channel sees them, and what stats() says of the engine
// meanwhile; and the engine's observing frames taken as the hostile input they are.
describe('observing the process tier’s engine', () => {
  const observed = observeEachTest();

  it('publishes the engine’s start, its crash with the cause, the restart and the next start; stats() follows', async () => {
    const host = await createHost({ isolation: 'process', packageDirs: zooDirs('healthy') });
    try {
      const [first] = observed().of('plurnk-execs:engine:start') as EngineStartEvent[];
      const { pidNamespace, permissionModel } = host.isolation();
      expect(first).toEqual({
        pid: expect.any(Number),
        packages: ['zoo-healthy'],
        restarts: 0,
        bootMs: expect.any(Number),
        containment: { pidNamespace, permissionModel },
      });
      const before = await host.stats();
      expect(before.engines[0]).toMatchObject({ pid: first!.pid, state: 'running', restarts: 0, lastCrash: null });

      // The engine's pid as the service sees it is the process to kill.
      process.kill(first!.pid!, 'SIGKILL');
      await until(() => observed().of('plurnk-execs:engine:start').length === 2, 'the engine to be restarted');
      const [crash] = observed().of('plurnk-execs:engine:crash') as EngineCrashEvent[];
      expect(crash).toEqual({
        pid: first!.pid,
        packages: ['zoo-healthy'],
        end: 'engine-crashed',
        cause: expect.stringMatching(/^the engine process (exited with code|was killed by)/),
        runsInFlight: 0,
      });
      expect(observed().of('plurnk-execs:engine:restart')).toEqual([
        { packages: ['zoo-healthy'], restart: 1, delayMs: expect.any(Number), cause: crash!.cause },
      ]);
      const second = observed().of('plurnk-execs:engine:start')[1] as EngineStartEvent;
      expect(second).toMatchObject({ packages: ['zoo-healthy'], restarts: 1 });
      expect(second.pid).not.toBe(first!.pid);
      expect(observed().seen.map((entry) => entry.channel)).toEqual([
        'plurnk-execs:engine:start',
        'plurnk-execs:engine:crash',
        'plurnk-execs:engine:restart',
        'plurnk-execs:engine:start',
      ]);
      expect((await host.stats()).engines[0]).toMatchObject({
        pid: second.pid,
        state: 'running',
        restarts: 1,
        lastCrash: crash!.cause,
      });
      expect((await host.exec({ runtime: 'healthy', body: 'ok' })).result.status).toBe(200);
    } finally {
      await host.close();
    }
    // Closing ends the engine without a crash; the snapshot says so.
    expect(observed().of('plurnk-execs:engine:crash')).toHaveLength(1);
    expect((await host.stats()).engines[0]).toMatchObject({ pid: null, state: 'closed', restarts: 1 });
  });

  it('publishes an engine whose main thread stopped answering, then its crash', async () => {
    const host = await createHost({
      isolation: 'process',
      packageDirs: zooDirs('healthy'),
      limits: { heartbeatMs: 100, unresponsiveMs: 1500 },
    });
    try {
      const { pid } = (await host.stats()).engines[0]!;
      // A real fault: the engine lives, holds its pipe open, and answers nothing.
      process.kill(pid!, 'SIGSTOP');
      await until(() => observed().of('plurnk-execs:engine:crash').length === 1, 'the silent engine to be killed');
      expect(observed().of('plurnk-execs:engine:unresponsive')).toEqual([
        {
          pid,
          packages: ['zoo-healthy'],
          unresponsiveMs: 1500,
          cause: expect.stringMatching(/^the engine's main thread stopped answering/),
        },
      ]);
      expect(observed().of('plurnk-execs:engine:crash')).toEqual([
        expect.objectContaining({ pid, end: 'engine-unresponsive', cause: expect.stringMatching(/stopped answering/) }),
      ]);
      // While no engine runs (the next starts after a backoff of 100 ms at least), stats() answers
      // at once, without the threads it cannot see.
      const stats = await host.stats();
      expect(stats.engines[0]).toMatchObject({
        pid: null,
        state: 'restarting',
        lastCrash: expect.stringMatching(/stopped answering/),
      });
      expect(stats.tags.healthy!.threads).toBeNull();
      expect((await host.exec({ runtime: 'healthy', body: 'ok' })).result.status).toBe(200);
    } finally {
      await host.close();
    }
  });

  it('publishes a tag degraded for the engine death charged to it, and restored by its first clean run after', async () => {
    const host = await createHost({
      isolation: 'process',
      packageDirs: zooDirs('healthy', 'run-never-settles'),
      breaker: { crashes: 1, windowMs: 600_000, cooldownMs: 500 },
    });
    try {
      const wrote = handshake();
      const running = host.exec({
        runtime: 'run-never-settles',
        body: 'fault',
        sinks: { write: () => wrote.resolve() },
      });
      await wrote.promise;
      // The engine dies with one run in flight: the service charges its tag.
      process.kill((await host.stats()).engines[0]!.pid!, 'SIGKILL');
      expect((await running).containment?.forcedEnd?.reason).toBe('engine-crashed');
      expect(observed().of('plurnk-execs:tag:degraded')).toEqual([
        {
          tag: 'run-never-settles',
          crashes: 1,
          reason: expect.stringMatching(/^the engine process died: /),
          retryInMs: 500,
        },
      ]);
      expect((await host.stats()).tags['run-never-settles']!.breaker.state).toBe('open');
      await until(() => host.availability('run-never-settles')?.degraded === undefined, 'the cool-down to pass');
      expect(observed().of('plurnk-execs:tag:restored')).toEqual([]);
      expect((await host.exec({ runtime: 'run-never-settles', body: 'ok' })).result.status).toBe(200);
      expect(observed().of('plurnk-execs:tag:restored')).toEqual([{ tag: 'run-never-settles' }]);
      expect((await host.stats()).tags['run-never-settles']!.breaker).toMatchObject({ state: 'closed', crashes: 0 });
    } finally {
      await host.close();
    }
  });

  it.each([
    ['an event of a tag the engine does not serve', 'foreign-event', /event naming a tag it does not serve/],
    ['stats naming a tag the engine does not serve', 'foreign-stats', /stats naming a tag it does not serve/],
    ['an event that breaks its schema', 'malformed-event', /a malformed frame/],
  ])('kills the engine as corrupt for %s, and republishes nothing of it', async (_, body, cause) => {
    const host = await createHost({
      isolation: 'process',
      packageDirs: [...zooDirs('healthy'), join(FIXTURES, 'forges-observe-frames')],
    });
    try {
      const out = await host.exec({
        runtime: 'forges-observe-frames',
        body,
        sinks: { interact: async () => ({ status: 'cancelled' as const }) },
      });
      expect(out.result).toMatchObject({ status: 500, problem: { type: expect.stringMatching(/engine-crashed$/) } });
      expect(out.result.problem?.detail).toMatch(cause);
      expect(out.channels.out?.text).toBe('before the fault');
      expect(observed().of('plurnk-execs:engine:crash')).toEqual([
        expect.objectContaining({ end: 'engine-crashed', cause: expect.stringMatching(cause), runsInFlight: 1 }),
      ]);
      expect(observed().of('plurnk-execs:tag:degraded')).toEqual([]);
      expect(observed().of('plurnk-execs:thread:retired')).not.toContainEqual(
        expect.objectContaining({ threadId: -1 }),
      );
      expect((await host.stats()).tags).not.toHaveProperty('not-served-here');
      expect((await host.exec({ runtime: 'healthy', body: 'ok' })).result.status).toBe(200);
    } finally {
      await host.close();
    }
  });
});

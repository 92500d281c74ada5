import { randomUUID } from 'node:crypto';
import { setTimeout as sleep } from 'node:timers/promises';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { detectPidNamespace } from '../../../src/engine/engine-command.js';
import { createHost, type ExecOutcome } from '../../../src/host/index.js';
import { engineOf, enginePids } from '../../helpers/engine-pids.js';
import { handshake } from '../../helpers/handshake.js';
import { survivorsAfter } from '../../helpers/survivors.js';
import { watchHostErrors, zooDirs } from '../../helpers/zoo.js';

const COMMON = fileURLToPath(new URL('../../../src/leaves/common', import.meta.url));
const COMMON_PACKAGE = '@plurnk/plurnk-execs-common';
const namespace = detectPidNamespace() !== null;
const PATH = process.env.PATH ?? '/usr/bin:/bin';

// The service against an engine that stops answering or will not come back: a stuck engine is
// killed and replaced, a run that waits for one in vain gets 503, and close() leaves nothing.
describe('restarting the process tier’s engine', () => {
  it('kills an engine whose main thread stopped (SIGSTOP): 500 engine-unresponsive with the output kept, then a new engine', async () => {
    const hostErrors = watchHostErrors();
    const host = await createHost({
      isolation: 'process',
      packageDirs: [...zooDirs('healthy'), COMMON],
      tags: ['sh', 'healthy'],
      limits: { heartbeatMs: 100, unresponsiveMs: 2000, graceMs: 300 },
    });
    const marker = randomUUID();
    let stopped: number | undefined;
    try {
      // An engine that answers is left alone however long its runs take: its heartbeats keep coming.
      const answering = await engineOf(host, COMMON_PACKAGE);
      const healthy = await engineOf(host, 'zoo-healthy');
      const long = await host.exec({ runtime: 'sh', body: 'sleep 3; echo slept', env: { PATH, ZOO_RUN: marker } });
      expect({ status: long.result.status, text: long.channels.stdout?.text }).toEqual({
        status: 200,
        text: 'slept\n',
      });
      expect(await engineOf(host, COMMON_PACKAGE)).toBe(answering);
      const first = handshake<string>();
      const running = host.exec({
        runtime: 'sh',
        body: 'echo before the stop; sleep 300',
        env: { PATH, ZOO_RUN: marker },
        sinks: { write: (_channel, chunk) => first.resolve(chunk) },
      });
      expect(await first.promise).toBe('before the stop\n');
      stopped = answering;
      // A real fault the service must contain: the engine is alive, holds its pipe open, and answers nothing.
      process.kill(stopped!, 'SIGSTOP');
      const out = await settleWithin(running, 20_000);
      expect(out.result).toMatchObject({
        status: 500,
        problem: {
          type: expect.stringMatching(/\/engine-unresponsive$/),
          detail: expect.stringMatching(/stopped answering/),
        },
      });
      expect(out.outcome).toBe('leaf-fault');
      expect(out.containment?.forcedEnd).toEqual({ reason: 'engine-unresponsive', terminated: true });
      expect(out.channels.stdout).toMatchObject({ text: 'before the stop\n', state: 'errored' });
      // The next run waits for a new engine and succeeds on it; the stopped one is gone, the other package's untouched.
      const next = await host.exec({ runtime: 'sh', body: 'echo again', env: { PATH } });
      expect({ status: next.result.status, text: next.channels.stdout?.text }).toEqual({
        status: 200,
        text: 'again\n',
      });
      expect(enginePids().engine).not.toContain(stopped);
      expect(await engineOf(host, 'zoo-healthy')).toBe(healthy);
    } finally {
      await host.close();
      hostErrors.dispose();
    }
    expect(hostErrors.errors).toEqual([]);
    expect(enginePids().all).toEqual([]);
    // Without a namespace the stopped engine's shell is an orphan only process groups could find (docs/isolation.md).
    if (namespace) expect(await survivorsAfter([{ marker }])).toEqual([]);
  });

  it('answers 503 engine-unavailable to a run that waited for a restarting engine in vain, then serves again', async () => {
    const host = await createHost({
      isolation: 'process',
      packageDirs: zooDirs('healthy'),
      // The wait for a restarting engine is loadTimeoutMs + probeTimeoutMs + 5 s (docs/isolation.md).
      loadTimeoutMs: 1000,
      probeTimeoutMs: 1000,
    });
    let killing = true;
    let kills = 0;
    try {
      // Every engine that starts dies while it boots (a crash loop) for as long as the test says.
      const killer = (async () => {
        while (killing) {
          for (const pid of enginePids().engine) {
            try {
              process.kill(pid, 'SIGKILL');
              kills += 1;
            } catch {
              // Gone already.
            }
          }
          await sleep(20);
        }
      })();
      while (kills === 0) await sleep(5);
      // A run sent before the service saw the booted engine die settles engine-crashed; the next one waits.
      let waited = await host.exec({ runtime: 'healthy', body: 'ok' });
      for (let attempt = 0; attempt < 3 && waited.containment?.forcedEnd?.reason === 'engine-crashed'; attempt += 1)
        waited = await host.exec({ runtime: 'healthy', body: 'ok' });
      killing = false;
      await killer;
      expect(waited.result).toMatchObject({
        status: 503,
        problem: {
          type: expect.stringMatching(/\/engine-unavailable$/),
          detail: expect.stringMatching(/did not come back in time/),
        },
      });
      expect(waited.outcome).toBe('refused');
      expect(waited.channels).toEqual({});
      // Once engines may boot again, the host serves again (the restart backoff may outlast one wait).
      let next: ExecOutcome | undefined;
      for (let attempt = 0; attempt < 3 && next?.result.status !== 200; attempt += 1)
        next = await host.exec({ runtime: 'healthy', body: 'ok' });
      expect(next?.result).toEqual({ status: 200 });
    } finally {
      killing = false;
      await host.close();
    }
    expect(enginePids().all).toEqual([]);
  });
});

/** `running`, or a failure naming the bound when it did not settle within `ms` (a run that never settles is the bug). */
async function settleWithin(running: Promise<ExecOutcome>, ms: number): Promise<ExecOutcome> {
  const bound = new AbortController();
  const timeout = sleep(ms, undefined, { signal: bound.signal }).then(() => {
    throw new Error(`the run did not settle within ${ms}ms`);
  });
  try {
    return await Promise.race([running, timeout]);
  } finally {
    bound.abort();
    timeout.catch(() => {});
  }
}

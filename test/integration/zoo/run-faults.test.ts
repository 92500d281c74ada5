import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { SWEEPS_LEFTOVERS, tierOptions } from '../../helpers/tier.js';
import { createHost, type Host } from '../../../src/host/index.js';
import { randomUUID } from 'node:crypto';
import { survivorsAfter } from '../../helpers/survivors.js';
import { expectContained, watchHostErrors, zooDirs } from '../../helpers/zoo.js';

// Faults of run() itself. Every case goes through the full containment check (helpers/zoo.ts);
// the tests here add what is particular to each fault. The breaker is set out of reach so
// that crashing cases never degrade their tag; breaker.test.ts covers it.
describe('the zoo: faults inside run()', () => {
  let host: Host;
  const hostErrors = watchHostErrors();
  beforeAll(async () => {
    host = await createHost({
      ...tierOptions(),
      packageDirs: zooDirs(
        'healthy',
        'run-throws',
        'run-rejects',
        'run-never-settles',
        'run-spins',
        'ignores-abort',
        'run-exits',
        'late-uncaught-exception',
        'late-unhandled-rejection',
        'invalid-result',
        'run-blocks-in-exec-sync',
      ),
      breaker: { crashes: 1000 },
      limits: { graceMs: 300, heartbeatMs: 50, unresponsiveMs: 2000 },
    });
  });
  afterEach(() => expect(hostErrors.errors).toEqual([]));
  afterAll(async () => {
    await host.close();
    hostErrors.dispose();
  });

  it('turns a throw into 500 executor-threw naming the error, keeping what was written before', async () => {
    const out = await expectContained(host, {
      runtime: 'run-throws',
      problem: 'exec/executor-threw',
      status: 500,
      forcedEnd: null,
      kept: 'before the fault',
      next: { body: 'ok' },
    });
    expect(out.result.problem).toMatchObject({
      detail: 'run() threw: RangeError: run-throws gave up',
      error: 'RangeError',
    });
  });

  it('turns a rejection after an await into 500 executor-threw', async () => {
    const out = await expectContained(host, {
      runtime: 'run-rejects',
      problem: 'exec/executor-threw',
      status: 500,
      forcedEnd: null,
      kept: 'before the fault',
      next: { body: 'ok' },
    });
    expect(out.result.problem?.detail).toBe('run() threw: TypeError: run-rejects rejected after an await');
  });

  it('ends a run that never settles at its deadline: 504 execution-timeout, its thread terminated after grace', async () => {
    const out = await expectContained(host, {
      runtime: 'run-never-settles',
      timeoutMs: 300,
      problem: 'exec/execution-timeout',
      status: 504,
      forcedEnd: { reason: 'timeout', terminated: true },
      kept: 'before the fault',
      next: { body: 'ok' },
    });
    expect(out.result.problem?.detail).toMatch(/did not settle within 300ms; its worker thread was terminated$/);
  });

  it('reports a synchronous loop as 500 executor-unresponsive, distinct from a timeout, and replaces the thread', async () => {
    const out = await expectContained(host, {
      runtime: 'run-spins',
      problem: 'exec/executor-unresponsive',
      status: 500,
      forcedEnd: { reason: 'unresponsive', terminated: true },
      kept: 'before the fault',
      next: { body: 'ok' },
    });
    expect(out.result.problem?.detail).toMatch(
      /^the worker thread stopped answering: no heartbeat for \d+ms \(limits.unresponsiveMs 2000\)/,
    );
  });

  it('cancels a leaf that ignores its abort: 499 execution-cancelled once grace runs out', async () => {
    const out = await expectContained(host, {
      runtime: 'ignores-abort',
      abortAfterFirstWrite: true,
      problem: 'exec/execution-cancelled',
      status: 499,
      forcedEnd: { reason: 'cancelled', terminated: true },
      kept: 'before the fault',
      next: { body: 'ok' },
    });
    expect(out.channels.out!.text).toBe('before the fault');
  });

  it('settles 500 executor-threw when process.exit() ends the thread inside run()', async () => {
    const out = await expectContained(host, {
      runtime: 'run-exits',
      problem: 'exec/executor-threw',
      status: 500,
      forcedEnd: { reason: 'thread-died', terminated: false },
      kept: 'before the fault',
      next: { body: 'ok' },
    });
    expect(out.result.problem?.detail).toBe(
      'the worker thread died during run(): the worker thread exited with code 3',
    );
  });

  it.each([
    [
      'late-uncaught-exception',
      'a timer',
      'fault',
      'an uncaught exception escaped run() (from a timer or callback it started): Error: thrown from a timer after run() resolved',
      'before the fault',
    ],
    [
      'late-unhandled-rejection',
      'a timer',
      'fault',
      'an unhandled rejection escaped run() (from a timer or callback it started): Error: rejected in a timer after run() resolved',
      'before the fault',
    ],
    [
      'late-uncaught-exception',
      'an immediate',
      'immediate',
      'an uncaught exception escaped run() (from a timer or callback it started): Error: thrown from an immediate after run() resolved',
      // The immediate runs inside the run's task: what it wrote before it threw is the run's.
      'before the fault, then from an immediate',
    ],
  ])(
    'charges %s from %s left behind to the run that left it: 500 executor-threw',
    async (runtime, _left, body, detail, text) => {
      const out = await expectContained(host, {
        runtime,
        body,
        problem: 'exec/executor-threw',
        status: 500,
        forcedEnd: { reason: 'escaped-error', terminated: false },
        kept: 'before the fault',
        next: { body: 'ok' },
      });
      expect(out.result.problem?.detail).toBe(detail);
      expect(out.channels.out!.text).toBe(text);
    },
  );

  it('turns a result of the wrong shape into 500 executor-invalid-result', async () => {
    const out = await expectContained(host, {
      runtime: 'invalid-result',
      problem: 'exec/executor-invalid-result',
      status: 500,
      forcedEnd: null,
      kept: 'before the fault',
      next: { body: 'ok' },
    });
    expect(out.result.problem?.detail).toMatch(/^run\(\) resolved an invalid result: /);
  });

  it('settles a run blocked in execSync as unresponsive and kills the blocking child by its run marker', async () => {
    const marker = randomUUID();
    const out = await host.exec({
      runtime: 'run-blocks-in-exec-sync',
      body: 'fault',
      env: { ...process.env, ZOO_RUN: marker },
    });
    expect(out.result.problem?.type).toBe('https://problems.plurnk.xyz/scheme/exec/executor-unresponsive');
    expect(out.channels.out!.text).toBe('before the fault');
    // execSync's child could not be reported while it blocked the thread, but it carries the
    // run's PLURNK_EXECS_RUN: the thread tier's sweep at the run's end killed it, which let the
    // thread go; the process tier's engine kills it at the run's end at the latest.
    if (!SWEEPS_LEFTOVERS) expect(out.containment?.reapedProcesses).toBeGreaterThanOrEqual(1);
    expect(await survivorsAfter([{ marker }])).toEqual([]);
    expect((await host.exec({ runtime: 'run-blocks-in-exec-sync', body: 'ok' })).result).toEqual({ status: 200 });
  });
});

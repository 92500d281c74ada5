import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { createHost, type Host } from '../../../src/host/index.js';
import { isPlurnkExecsError } from '../../../src/index.js';
import { fixture } from '../../helpers/discovery-fixtures.js';
import { expectContained, watchHostErrors, zooDirs } from '../../helpers/zoo.js';
import { namedError } from '../../helpers/named-error.js';

// Faults before run(): loading the leaf, probing it, classifying a target, and the
// discovery hook that declares its tags.
describe('the zoo: faults before run()', () => {
  let host: Host;
  const hostErrors = watchHostErrors();
  beforeAll(async () => {
    host = await createHost({
      packageDirs: zooDirs(
        'healthy',
        'host/exec-throws-on-import',
        'host/exec-throws-in-constructor',
        'host/exec-probe-hangs',
        'probe-spins',
        'effect-spins',
        'effect-throws',
        'effect-not-an-effect',
      ),
      probeTimeoutMs: 1000,
      breaker: { crashes: 1000 },
      limits: { graceMs: 300 },
    });
  });
  afterEach(() => expect(hostErrors.errors).toEqual([]));
  afterAll(async () => {
    await host.close();
    hostErrors.dispose();
  });

  it.each([
    [
      'import-throws',
      'import-failed',
      'the leaf could not be loaded: RangeError: exec-throws-on-import refuses to load',
    ],
    ['ctor-throws', 'constructor-threw', 'the leaf could not be loaded: Error: cannot construct ctor-throws'],
    ['probe-hangs', 'probe-timeout', 'probe exceeded 1000ms'],
    ['probe-spins', 'probe-timeout', 'probe exceeded 1000ms'],
  ])(
    'makes only %s unavailable (%s), with why; its runs are refused 501 and the host serves the rest',
    async (runtime, fault, detail) => {
      expect(host.availability(runtime)).toMatchObject({ available: false, fault, detail });
      expect(host.availableRuntimes()).toContain('healthy');
      const out = await expectContained(host, {
        runtime,
        body: 'x',
        problem: 'exec/runtime-unavailable',
        status: 501,
        next: 'unavailable',
      });
      expect(out.result.problem?.detail).toBe(`runtime ${runtime} is unavailable: ${detail}`);
    },
  );

  it('bounds a synchronous loop in effect(): 500 executor-threw, the thread replaced, the tag answers the next target', async () => {
    const out = await expectContained(host, {
      runtime: 'effect-spins',
      problem: 'exec/executor-threw',
      status: 500,
      next: { body: 'ok', target: 'ok' },
    });
    expect(out.result.problem?.detail).toBe('effect() did not return within 1000ms');
    expect(out.effect).toBeNull();
  });

  it('turns a throwing effect() into 500 executor-threw', async () => {
    const out = await expectContained(host, {
      runtime: 'effect-throws',
      problem: 'exec/executor-threw',
      status: 500,
      next: { body: 'ok', target: 'ok' },
    });
    expect(out.result.problem?.detail).toBe(
      'effect() threw: TypeError: effect-throws cannot classify an absent target',
    );
  });

  it('turns an effect() that is no Effect into 500 executor-invalid-result', async () => {
    const out = await expectContained(host, {
      runtime: 'effect-not-an-effect',
      problem: 'exec/executor-invalid-result',
      status: 500,
      next: { body: 'ok', target: 'ok' },
    });
    expect(out.result.problem?.detail).toBe(`effect() returned "dangerous", not 'pure', 'read' or 'host'`);
  });

  it('gives up on a runtimes hook that never settles: createHost rejects invalid-hook while another host keeps serving', async () => {
    const booting = createHost({ packageDirs: [fixture('hooks', 'hook-hangs')], hookTimeoutMs: 500 }).catch(
      (error: unknown) => error,
    );
    const during = await host.exec({ runtime: 'healthy', body: 'during' });
    expect(during.result).toEqual({ status: 200 });
    const error = await booting;
    expect(isPlurnkExecsError(error, 'invalid-hook')).toBe(true);
    expect((error as Error).message).toMatch(/hook-hangs.*it did not settle within 500 ms/s);
    expect((await host.exec({ runtime: 'healthy', body: 'after' })).result).toEqual({ status: 200 });
  });

  it.each([
    ['hook-spins', /the hook failed: Error: it did not settle within 3000 ms/],
    ['hook-exits', /the hook failed: Error: its thread exited with code 9/],
  ])(
    'runs the runtimes hook of %s in a thread of its own: discovery fails invalid-hook and the host process lives on',
    async (name, message) => {
      // 3 s: the thread starts and installs its guards before the hook loads, on a machine that may be busy.
      const booting = namedError(createHost({ packageDirs: zooDirs(name), hookTimeoutMs: 3000 }), 'invalid-hook');
      expect((await host.exec({ runtime: 'healthy', body: 'during' })).result).toEqual({ status: 200 });
      const error = await booting;
      expect(error.message).toContain(`package "zoo-${name}" plurnk.runtimesModule "./runtimes"`);
      expect(error.message).toMatch(message);
      expect((await host.exec({ runtime: 'healthy', body: 'after' })).result).toEqual({ status: 200 });
    },
  );
});

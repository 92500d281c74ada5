import { afterAll, describe, expect, it } from 'vitest';
import { tierOptions } from '../../helpers/tier.js';
import { createHost } from '../../../src/host/index.js';
import { expectContained, watchHostErrors, zooDirs, zooHost } from '../../helpers/zoo.js';

// Faults at the thread boundary itself: a leaf that speaks on its ports in ways the protocol
// has no words for. None may reach the host's main thread, crash the host, or touch another run.
describe('the zoo: the thread boundary', () => {
  const host = zooHost(
    {
      packageDirs: zooDirs(
        'healthy',
        'hijacks-sink-port',
        'sends-unserializable-values',
        'forges-task-reply',
        'resolves-deep-result',
      ),
      breaker: { crashes: 1000 },
      // A dropped reply would wait this long; the fault must be judged long before.
      limits: { graceMs: 300, unresponsiveMs: 120_000 },
    },
    { ZOO_HOST_SECRET: 'zoo-host-secret' },
  );

  it('serves only the sink calls of the contract: every comlink message with a hostile path is dropped and recorded', async () => {
    const out = await expectContained(host(), {
      runtime: 'hijacks-sink-port',
      status: 200,
      kept: 'before the fault',
      next: { body: 'ok' },
    });
    // Nothing ran on the host's main thread, nothing was polluted, nothing was overwritten.
    expect((globalThis as { zooSinkPortPwned?: unknown }).zooSinkPortPwned).toBeUndefined();
    expect(({} as { zooPolluted?: unknown }).zooPolluted).toBeUndefined();
    expect(out.channels.out!.text).toBe('before the fault, contained');
    const dropped = out.violations.filter((v) => v.kind === 'malformed-sink-call');
    expect(dropped.every((v) => v.detail.startsWith('sink port: dropped a message that is no sink call: '))).toBe(true);
    expect(dropped.map((v) => /"type":"(\w+)"/.exec(v.detail)?.[1])).toEqual([
      'GET',
      'SET',
      'SET',
      'APPLY',
      'CONSTRUCT',
      'ENDPOINT',
      'RELEASE',
    ]);
    expect(out.violations).toHaveLength(dropped.length);
    // Later runs of every tag still work, sinks and all.
    const again = await host().exec({ runtime: 'hijacks-sink-port', body: 'ok' });
    expect(again.channels.out!.text).toBe('ok');
  });

  it('describes BigInts and cyclic objects a leaf hands its sinks, boundedly, and records each as a violation', async () => {
    const out = await expectContained(host(), {
      runtime: 'sends-unserializable-values',
      status: 200,
      kept: 'before the fault',
      next: { body: 'ok' },
    });
    expect(out.channels.out!.text).toBe('before the fault, after');
    expect(out.violations).toEqual([
      { kind: 'invalid-state', detail: 'setState on out: 10n is not a channel state' },
      {
        kind: 'invalid-write',
        detail: 'write to out: mimetype must be a non-empty string, received {"name":"cyclic","self":[cycle]}',
      },
      {
        kind: 'undeclared-channel',
        detail: 'write to undeclared channel {"name":"cyclic","self":[cycle]} (declared: out)',
      },
      { kind: 'undeclared-channel', detail: 'setState to undeclared channel 10n (declared: out)' },
      { kind: 'invalid-notice', detail: expect.stringMatching(/^emit: invalid notice \(/) },
      { kind: 'invalid-notice', detail: expect.stringMatching(/^emit: invalid notice \(message: /) },
      { kind: 'invalid-interaction', detail: expect.stringMatching(/^interact: invalid request \(/) },
    ]);
  });

  it("keeps task replies out of a leaf's reach: forged ones are refused, the run keeps its own result and its child is reaped", async () => {
    const out = await expectContained(host(), {
      runtime: 'forges-task-reply',
      status: 200,
      kept: 'before the fault',
      // A thread that served a run never serves another: the next run is its thread's first.
      next: { body: 'ok' },
    });
    // The real reply went out on a port the leaf never saw, through a postMessage it could not
    // wrap; the replies it forged on the port it could reach (its sink port) were dropped there.
    expect(out.result).toEqual({ status: 200 });
    const forged = out.violations.filter((v) => v.kind === 'malformed-sink-call');
    expect(forged.map((v) => /"type":"reply","id":(\d)/.exec(v.detail)?.[1])).toEqual(['1', '2', '3']);
    expect(out.violations).toEqual(forged);
    expect(out.containment?.reapedProcesses).toBe(1);
  });

  it('refuses a result nested deeper than the host can deserialize at once: 500 executor-invalid-result', async () => {
    const out = await expectContained(host(), {
      runtime: 'resolves-deep-result',
      problem: 'exec/executor-invalid-result',
      status: 500,
      kept: 'before the fault',
      next: { body: 'ok' },
    });
    expect(out.result.problem?.detail).toBe(
      "run() resolved a value that cannot cross the thread: RangeError: the value nests more than 256 levels deep; the host's main thread cannot read it",
    );
  });
});

describe('the zoo: a leaf that never loads', () => {
  const hostErrors = watchHostErrors();
  afterAll(() => hostErrors.dispose());

  it('gives up on a module that spins at import after loadTimeoutMs, the one stated load bound', async () => {
    const host = await createHost({
      ...tierOptions(),
      packageDirs: zooDirs('healthy', 'spins-at-import'),
      probeTimeoutMs: 3000,
      loadTimeoutMs: 4000,
    });
    try {
      expect(host.availability('spins-at-import')).toMatchObject({
        available: false,
        detail: 'the leaf did not load within loadTimeoutMs 4000ms',
      });
      const out = await host.exec({ runtime: 'spins-at-import', body: 'ok' });
      expect(out.result.problem?.type).toBe('https://problems.plurnk.xyz/scheme/exec/runtime-unavailable');
      expect((await host.exec({ runtime: 'healthy', body: 'after' })).result).toEqual({ status: 200 });
    } finally {
      await host.close();
    }
    expect(hostErrors.errors).toEqual([]);
  });
});

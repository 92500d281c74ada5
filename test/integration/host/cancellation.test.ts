import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { bootHost, type Host } from '../../../src/host/index.js';
import { fixtureDiscovery } from '../../helpers/fixture-discovery.js';
import { handshake } from '../../helpers/handshake.js';
import { survivors } from '../../helpers/survivors.js';
import { namedError } from '../../helpers/named-error.js';

/** Sinks that resolve `seen` with the first chunk written (the run has started and said so). */
function firstWrite() {
  const seen = handshake<string>();
  return { seen: seen.promise, sinks: { write: (_channel: string, chunk: string) => seen.resolve(chunk) } };
}

// Cancellation crosses the thread as the same reason; a run that ignores it is ended by
// terminating its thread after grace, and every process group it reported is reaped.
// Two hosts: a patient one whose grace is long enough for a leaf that honours its signal to
// settle even on a loaded machine, and an impatient one for leaves that never settle.
describe('cancellation across the thread', () => {
  let host: Host;
  let impatient: Host;
  beforeAll(async () => {
    const discovery = fixtureDiscovery([
      'exec-waits-for-abort',
      'exec-spins',
      'exec-hangs-with-child',
      'exec-subprocess',
    ]);
    host = await bootHost(discovery, { limits: { graceMs: 10_000 } });
    impatient = await bootHost(discovery, { limits: { graceMs: 300 } });
  });
  afterAll(() => Promise.all([host.close(), impatient.close()]));

  it("delivers the abort reason unchanged to the leaf's signal, and the leaf's own result stands", async () => {
    const controller = new AbortController();
    const { seen, sinks } = firstWrite();
    const running = host.exec({ runtime: 'wait-abort', body: 'x', signal: controller.signal, sinks });
    await seen;
    controller.abort({ signal: 'SIGUSR1' });
    const out = await running;
    expect(out.channels.out!.text).toBe('waiting\n{"reason":{"signal":"SIGUSR1"}}');
    expect(out.result.problem?.type).toBe('https://problems.plurnk.xyz/wait-abort/cancelled');
  });

  it('re-creates a DOMException reason in the worker', async () => {
    const controller = new AbortController();
    const { seen, sinks } = firstWrite();
    const running = host.exec({ runtime: 'wait-abort', body: 'x', signal: controller.signal, sinks });
    await seen;
    controller.abort();
    const out = await running;
    expect(out.channels.out!.text).toContain('{"reason":{"name":"AbortError"');
  });

  it('cancels a hung synchronous run by terminating its thread after grace; the next run of the tag succeeds', async () => {
    const controller = new AbortController();
    const { seen, sinks } = firstWrite();
    const running = impatient.exec({ runtime: 'spin', body: 'spin', signal: controller.signal, sinks });
    expect(await seen).toMatch(/^spinning in \d+$/);
    controller.abort();
    const out = await running;
    expect(out.result).toMatchObject({
      status: 499,
      problem: {
        type: 'https://problems.plurnk.xyz/scheme/exec/execution-cancelled',
        detail: 'the run did not settle within 300ms of its abort; its worker thread was terminated',
      },
    });
    expect(out.channels.out).toMatchObject({ state: 'errored' });
    expect(out.channels.out!.text).toMatch(/^spinning in/);
    const next = await impatient.exec({ runtime: 'spin', body: 'again' });
    expect(next.result).toEqual({ status: 200 });
    expect(next.channels.out!.text).toBe('ok');
  });

  it('leaves no survivor of the sleep 1000 a hanging leaf started', async () => {
    const controller = new AbortController();
    const { seen, sinks } = firstWrite();
    const running = impatient.exec({ runtime: 'hang-child', body: 'x', signal: controller.signal, sinks });
    const pgid = Number(await seen);
    expect(survivors(pgid)).toHaveLength(1);
    controller.abort();
    const out = await running;
    expect(out.result.status).toBe(499);
    expect(survivors(pgid)).toEqual([]);
  });

  it("kills a subprocess leaf's process group on abort: SubprocessExecutor's own 499 stands", async () => {
    const controller = new AbortController();
    const { seen, sinks } = firstWrite();
    const running = host.exec({ runtime: 'sh', body: 'echo $$; exec sleep 1000', signal: controller.signal, sinks });
    const pgid = Number((await seen).trim());
    controller.abort();
    const out = await running;
    expect(out.result).toMatchObject({
      status: 499,
      problem: { type: 'https://problems.plurnk.xyz/executor/subprocess/cancelled' },
    });
    expect(survivors(pgid)).toEqual([]);
  });

  it('reaps a background grandchild when a run ends normally', async () => {
    const out = await host.exec({ runtime: 'sh', body: 'sleep 1000 & echo $$' });
    expect(out.result).toEqual({ status: 200, exitCode: 0 });
    expect(survivors(Number(out.channels.stdout!.text.trim()))).toEqual([]);
  });

  it('settles 504 execution-timeout past timeoutMs; a leaf that honours the signal sees the housekeeping reason', async () => {
    const out = await host.exec({ runtime: 'wait-abort', body: 'x', timeoutMs: 300 });
    expect(out.result.problem).toMatchObject({
      type: 'https://problems.plurnk.xyz/scheme/exec/execution-timeout',
      status: 504,
    });
    expect(out.result.problem?.detail).toMatch(/settled within the grace period/);
    expect(out.channels.out!.text).toBe('waiting\n{"reason":{"housekeeping":true,"graceMs":10000}}');
  });

  it('settles 504 and terminates the thread when a timed-out run ignores its signal', async () => {
    const out = await impatient.exec({ runtime: 'spin', body: 'spin', timeoutMs: 300 });
    expect(out.result.problem?.detail).toBe(
      'the run exceeded its 300ms deadline and was aborted; it did not settle within 300ms; its worker thread was terminated',
    );
    expect((await impatient.exec({ runtime: 'spin', body: 'ok' })).result.status).toBe(200);
  });
});

describe('close()', () => {
  it('settles in-flight runs 499, reaps their groups, and refuses later calls with host-closed', async () => {
    const host = await bootHost(fixtureDiscovery(['exec-spins', 'exec-hangs-with-child']), {
      limits: { graceMs: 500 },
    });
    const spinning = firstWrite();
    const hanging = firstWrite();
    const spin = host.exec({ runtime: 'spin', body: 'spin', sinks: spinning.sinks });
    const hang = host.exec({ runtime: 'hang-child', body: 'x', sinks: hanging.sinks });
    await spinning.seen;
    const pgid = Number(await hanging.seen);
    await host.close();
    for (const out of [await spin, await hang]) {
      expect(out.result.problem).toMatchObject({
        status: 499,
        detail: 'the host closed while the run was in flight; its worker thread was terminated',
      });
    }
    expect(survivors(pgid)).toEqual([]);
    await namedError(host.exec({ runtime: 'spin', body: 'ok' }), 'host-closed');
    await namedError(host.effect('spin', null), 'host-closed');
    await host.close();
  });
});

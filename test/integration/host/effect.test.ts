import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { bootHost, type Host } from '../../../src/host/index.js';
import { fixtureDiscovery } from '../../helpers/fixture-discovery.js';
import { namedError } from '../../helpers/named-error.js';

// effect() is an admission fact computed in the leaf's thread: a broken one refuses the
// EXEC before any run, and a synchronous loop in it costs only that thread.
describe('effect() across the thread', () => {
  let host: Host;
  beforeAll(async () => {
    host = await bootHost(fixtureDiscovery(['exec-bad-effect']), { probeTimeoutMs: 1000 });
  });
  afterAll(() => host.close());

  it.each([
    ['throw', 'executor-threw', 'effect() threw: TypeError: cannot classify'],
    ['bogus', 'executor-invalid-result', `effect() returned "maybe", not 'pure', 'read' or 'host'`],
    ['spin', 'executor-threw', 'effect() did not return within 1000ms'],
  ])('refuses the run when effect() misbehaves (%s) and the tag works afterwards', async (target, code, detail) => {
    const out = await host.exec({ runtime: 'bad-effect', body: 'x', target });
    expect(out).toMatchObject({
      result: { status: 500, problem: { type: `https://problems.plurnk.xyz/scheme/exec/${code}`, detail } },
      effect: null,
      channels: {},
    });
    const next = await host.exec({ runtime: 'bad-effect', body: 'x' });
    expect(next).toMatchObject({ result: { status: 200 }, effect: 'pure' });
    expect(next.channels.out!.text).toBe('ran');
  });

  it('rejects host.effect with effect-failed when effect() throws', async () => {
    const error = await namedError(host.effect('bad-effect', 'throw'), 'effect-failed');
    expect(error.message).toBe('bad-effect: effect() threw: TypeError: cannot classify');
  });
});

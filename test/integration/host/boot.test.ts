import { describe, expect, it } from 'vitest';
import { bootHost } from '../../../src/host/index.js';
import { isPlurnkExecsError } from '../../../src/index.js';
import { fixtureDiscovery } from '../../helpers/fixture-discovery.js';
import { namedError } from '../../helpers/named-error.js';

// Boot loads and probes every tag in a thread of its own, concurrently, each under its own
// timeout; a broken tag costs only itself.
describe('boot probes', () => {
  it('makes only the tag whose probe never settles unavailable, naming the timeout', async () => {
    const host = await bootHost(fixtureDiscovery(['exec-probe-hangs', 'exec-echo']), { probeTimeoutMs: 1500 });
    try {
      expect(host.availability('probe-hangs')).toMatchObject({
        available: false,
        fault: 'probe-timeout',
        detail: 'probe exceeded 1500ms',
      });
      expect(host.availability('echo')).toMatchObject({ available: true });
      expect(host.availableRuntimes()).toEqual(['echo', 'echo-either', 'echo-literal', 'echo-target']);
      const out = await host.exec({ runtime: 'echo', body: 'still here' });
      expect(out.result.status).toBe(200);
    } finally {
      await host.close();
    }
  });

  it('reports a leaf that throws at import or in its constructor as unavailable with the error text', async () => {
    const host = await bootHost(fixtureDiscovery(['exec-throws-on-import', 'exec-throws-in-constructor', 'exec-echo']));
    try {
      expect(host.availability('import-throws')).toEqual({
        available: false,
        fault: 'import-failed',
        detail: 'the leaf could not be loaded: RangeError: exec-throws-on-import refuses to load',
        probeMs: 0,
      });
      expect(host.availability('ctor-throws')).toMatchObject({
        fault: 'constructor-threw',
        detail: 'the leaf could not be loaded: Error: cannot construct ctor-throws',
      });
      expect(host.availableRuntimes()).toEqual(['echo', 'echo-either', 'echo-literal', 'echo-target']);
    } finally {
      await host.close();
    }
  });

  it("caches each verdict with its latency and keeps a probe's actionable detail, with no fault of the leaf's", async () => {
    const host = await bootHost(fixtureDiscovery(['exec-unavailable', 'exec-subprocess']));
    try {
      expect(host.availability('absent')).toEqual({
        available: false,
        detail: 'install absent-tool 2.x',
        probeMs: expect.any(Number),
      });
      const node = host.availability('node');
      expect(node).toMatchObject({ available: true, detail: process.version });
      expect(Number.isInteger(node?.probeMs) && node!.probeMs >= 0).toBe(true);
      expect(host.availability('nowhere')).toBeUndefined();
      expect(host.availability('node')).toEqual(node);
    } finally {
      await host.close();
    }
  });

  it.each([
    ['absent from the registry', 'cobol', /"cobol" is not registered/],
    ['unavailable', 'absent', /"absent" is unavailable: install absent-tool 2\.x/],
  ])('fails boot when the default runtime is %s, naming it', async (_case, defaultRuntime, message) => {
    const error = await bootHost(fixtureDiscovery(['exec-unavailable', 'exec-echo']), { defaultRuntime }).catch(
      (e: unknown) => e,
    );
    expect(isPlurnkExecsError(error, 'boot-failed')).toBe(true);
    expect((error as Error).message).toMatch(message);
  });

  it('boots when the default runtime is available', async () => {
    const host = await bootHost(fixtureDiscovery(['exec-echo']), { defaultRuntime: 'echo' });
    await host.close();
    expect(host.availability('echo')?.available).toBe(true);
  });

  it.each([
    [{ probeTimeoutMs: -1 }, /probeTimeoutMs/],
    [{ recycle: 'sometimes' }, /recycle/],
    [{ limits: { graceMs: 'soon' } }, /limits.graceMs/],
    [{ probeTimout: 10 }, /probeTimout: unknown key "probeTimout"; the allowed keys are .*\bcwd\b.*probeTimeoutMs/],
    [{ limits: { heartbeat: 9 } }, /limits\.heartbeat: unknown key "heartbeat"; the allowed keys are .*heartbeatMs/],
  ])('rejects bad options %j with invalid-configuration', async (options, message) => {
    const error = await namedError(
      bootHost(fixtureDiscovery(['exec-echo']), options as never),
      'invalid-configuration',
    );
    expect(error.message).toMatch(message);
  });
});

import { describe, expect, it } from 'vitest';
import { bootHost, type Host, type HostOptions } from '../../../src/host/index.js';
import { fixtureDiscovery } from '../../helpers/fixture-discovery.js';
import { handshake } from '../../helpers/handshake.js';

interface StateReport {
  threadId: number;
  instanceRuns: number;
  moduleRuns: number;
}

async function withHost(options: HostOptions, body: (host: Host) => Promise<void>): Promise<void> {
  const host = await bootHost(fixtureDiscovery(['exec-keeps-state', 'exec-spins', 'exec-echo']), {
    limits: { graceMs: 500 },
    ...options,
  });
  try {
    await body(host);
  } finally {
    await host.close();
  }
}

async function stateRuns(host: Host, count: number): Promise<StateReport[]> {
  const reports: StateReport[] = [];
  for (let i = 0; i < count; i++) {
    const out = await host.exec({ runtime: 'state', body: 'x' });
    reports.push(JSON.parse(out.channels.results!.text) as StateReport);
  }
  return reports;
}

// §executor-forbidden "state retained across runs" is enforced by replacing threads; the
// proof is the threadId each run reports.
describe('recycling', () => {
  it("never lets a run see an earlier run's instance or module state under 'each-run' (the default)", async () => {
    await withHost({}, async (host) => {
      const reports = await stateRuns(host, 3);
      expect(new Set(reports.map((r) => r.threadId)).size).toBe(3);
      expect(reports.map((r) => [r.instanceRuns, r.moduleRuns])).toEqual([
        [1, 1],
        [1, 1],
        [1, 1],
      ]);
    });
  });

  it("keeps one thread and its state under 'never'", async () => {
    await withHost({ recycle: 'never' }, async (host) => {
      const reports = await stateRuns(host, 3);
      expect(new Set(reports.map((r) => r.threadId)).size).toBe(1);
      expect(reports.map((r) => [r.instanceRuns, r.moduleRuns])).toEqual([
        [1, 1],
        [2, 2],
        [3, 3],
      ]);
    });
  });

  it('replaces a thread after n runs under { afterRuns: n }', async () => {
    await withHost({ recycle: { afterRuns: 2 } }, async (host) => {
      const [a, b, c, d] = await stateRuns(host, 4);
      expect(b!.threadId).toBe(a!.threadId);
      expect(c!.threadId).not.toBe(a!.threadId);
      expect(d!.threadId).toBe(c!.threadId);
      expect([a, b, c, d].map((r) => r!.moduleRuns)).toEqual([1, 2, 1, 2]);
    });
  });

  it('runs several runs of one tag at once, each in its own thread', async () => {
    await withHost({ recycle: 'never' }, async (host) => {
      const controllers = [new AbortController(), new AbortController(), new AbortController()];
      const spinning = controllers.map(() => handshake<string>());
      const runs = controllers.map((controller, i) =>
        host.exec({
          runtime: 'spin',
          body: 'spin',
          signal: controller.signal,
          sinks: { write: (_c, chunk) => spinning[i]!.resolve(chunk) },
        }),
      );
      // All three are spinning at the same time, so they cannot share a thread.
      const threads = await Promise.all(spinning.map((s) => s.promise));
      expect(new Set(threads).size).toBe(3);
      for (const controller of controllers) controller.abort();
      for (const run of runs) expect((await run).result.status).toBe(499);
    });
  });

  it('never lets a CPU-bound run of one tag delay another tag', async () => {
    await withHost({}, async (host) => {
      const controller = new AbortController();
      const spinning = handshake<string>();
      const spin = host.exec({
        runtime: 'spin',
        body: 'spin',
        signal: controller.signal,
        sinks: { write: (_c, chunk) => spinning.resolve(chunk) },
      });
      await spinning.promise;
      // The spin only ends when aborted below, so a host that queued echo behind it would
      // hang here (the test times out); the echo's own output proves it ran meanwhile.
      const other = await host.exec({ runtime: 'echo', body: 'meanwhile' });
      expect(other.result.status).toBe(200);
      expect(JSON.parse(other.channels.out!.text)).toMatchObject({ runtime: 'echo', body: 'meanwhile' });
      controller.abort();
      expect((await spin).result.status).toBe(499);
    });
  });
});

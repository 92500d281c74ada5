import { randomUUID } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { createHost } from '../../../src/host/index.js';
import { liveOwners } from '../../../src/thread-host/ports/live-claims.js';
import { findMarkedProcesses } from '../../../src/runtime/marked-processes.js';
import { handshake } from '../../helpers/handshake.js';

const COMMON = fileURLToPath(new URL('../../../src/leaves/common', import.meta.url));
const PATH = process.env.PATH ?? '/usr/bin:/bin';

/** The `PLURNK_EXECS_RUN` value and process group of the one process carrying `ZOO_RUN=zooRun`. */
function runMarkerOf(zooRun: string): { marker: string | undefined; pgid: number } {
  const [found] = findMarkedProcesses('ZOO_RUN', zooRun);
  const environ = readFileSync(`/proc/${found!.pid}/environ`, 'utf8').split('\0');
  const stat = readFileSync(`/proc/${found!.pid}/stat`, 'utf8');
  return {
    marker: environ.find((entry) => entry.startsWith('PLURNK_EXECS_RUN='))?.slice('PLURNK_EXECS_RUN='.length),
    pgid: Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[2]),
  };
}

// What the engine's namespace sweep spares (docs/isolation.md) is read from these claims: a run's
// marker and groups must count exactly while it is in flight, and no claim may outlive the host.
describe('the live claims a host keeps for the namespace sweep', () => {
  it('holds a run’s marker and group while it is in flight, and nothing once the host closed', async () => {
    const host = await createHost({ isolation: 'thread', packageDirs: [COMMON], limits: { graceMs: 200 } });
    try {
      const zooRun = randomUUID();
      const started = handshake();
      const controller = new AbortController();
      const running = host.exec({
        runtime: 'sh',
        body: 'echo started; sleep 300',
        env: { PATH, ZOO_RUN: zooRun },
        signal: controller.signal,
        sinks: { write: () => started.resolve() },
      });
      await started.promise;
      const run = runMarkerOf(zooRun);
      expect(run.marker).toBeDefined();
      const during = liveOwners();
      expect(during.markers.has(run.marker!)).toBe(true);
      expect(during.groups.has(run.pgid)).toBe(true);
      controller.abort();
      expect((await running).result.status).toBe(499);
      const after = liveOwners();
      expect(after.markers.has(run.marker!)).toBe(false);
      expect(after.groups.has(run.pgid)).toBe(false);
      // A run that timed out (its thread retired) and an effect() call leave no claim open either.
      const late = await host.exec({ runtime: 'sh', body: 'sleep 300', timeoutMs: 200, env: { PATH } });
      expect(late.result.status).toBe(504);
      await host.effect('sh', null);
    } finally {
      await host.close();
    }
    expect(liveOwners()).toEqual({ markers: new Set(), groups: new Set() });
  });
});

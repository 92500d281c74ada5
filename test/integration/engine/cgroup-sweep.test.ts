import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { once } from 'node:events';
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, describe, expect, it } from 'vitest';
import { detectPidNamespace } from '../../../src/engine/engine-command.js';
import { findCgroupLayout } from '../../../src/engine/sandbox/cgroup-layout.js';
import { engineCgroupName, removeCgroup, sweepStaleCgroups } from '../../../src/engine/sandbox/cgroup-sweep.js';
import { createHost } from '../../../src/host/index.js';

const SERVICE = fileURLToPath(new URL('../../helpers/killed-service.mjs', import.meta.url));
const COMMON = fileURLToPath(new URL('../../../src/leaves/common', import.meta.url));
const layout = findCgroupLayout();
/** Where this process's services make their engines' cgroups: one v2 parent, or the v1 memory and pids ones. */
const PARENTS = 'missing' in layout ? [] : layout.version === 2 ? [layout.parent] : [layout.memory, layout.pids];

const started: ChildProcess[] = [];
const made: string[] = [];
afterAll(async () => {
  for (const child of started) child.kill('SIGKILL');
  // A cgroup that holds a process cannot go: the holder's, once it is killed above.
  for (const dir of made) await waitUntilAsync(() => removeCgroup(dir));
});

// A service killed outright cannot remove its engines' cgroups: the next engine booted in the
// same parents, by any service, removes them once they are empty. Made by hand beside them: a
// cgroup named for a pid that lives, one named for a gone pid that still holds a process, and
// one not named as an engine's. None of those three may go.
describe.runIf(PARENTS.length > 0 && detectPidNamespace() !== null)('the sweep of engine cgroups', () => {
  it('removes, at the next engine’s boot, the cgroups of a service killed outright, and never one of a live pid or one in use', async () => {
    // This process's first engine: a sweep once per process would be spent before the leftovers exist.
    const earlier = await createHost({ isolation: 'process', packageDirs: [COMMON] });
    await earlier.exec({ runtime: 'sh', body: 'true' });
    await earlier.close();

    const killed = await startService();
    const left = PARENTS.map((parent) => join(parent, engineCgroupName(0, killed.pid)));
    killed.kill('SIGKILL');
    await once(killed, 'exit');
    // Its engine ends with its channel, and leaves its cgroup empty (and there).
    await waitUntilAsync(() =>
      left.every((dir) => !existsSync(dir) || readFileSync(join(dir, 'cgroup.procs'), 'utf8') === ''),
    );
    expect(left.filter(existsSync)).toEqual(left);

    const holder = spawn('sleep', ['1000'], { stdio: 'ignore' });
    started.push(holder);
    const kept = {
      live: engineCgroupName(0, holder.pid!),
      busy: engineCgroupName(1, gonePid()),
      other: `plurnk-test-${randomUUID()}`,
    };
    for (const parent of PARENTS)
      for (const name of Object.values(kept)) {
        mkdirSync(join(parent, name));
        made.push(join(parent, name));
      }
    for (const parent of PARENTS) writeFileSync(join(parent, kept.busy, 'cgroup.procs'), String(holder.pid));

    const next = await createHost({ isolation: 'process', packageDirs: [COMMON] });
    try {
      expect((await next.exec({ runtime: 'sh', body: 'true' })).result).toMatchObject({ status: 200 });
    } finally {
      await next.close();
    }
    expect(left.filter(existsSync)).toEqual([]);
    const everyKept = PARENTS.flatMap((parent) => Object.values(kept).map((name) => join(parent, name)));
    expect(everyKept.filter((dir) => !existsSync(dir))).toEqual([]);
  }, 120_000);

  it('leaves a parent it cannot read as it is, and says nothing was removed', () => {
    expect(sweepStaleCgroups(join(PARENTS[0]!, `plurnk-test-absent-${randomUUID()}`))).toEqual([]);
  });
});

/** Starts killed-service.mjs and resolves once its engine served a run. */
async function startService(): Promise<ChildProcess> {
  const child = spawn(process.execPath, [SERVICE, COMMON], { stdio: ['ignore', 'pipe', 'inherit'] });
  started.push(child);
  let out = '';
  child.stdout!.setEncoding('utf8').on('data', (chunk: string) => (out += chunk));
  await waitUntilAsync(() => out.includes('\n') || child.exitCode !== null);
  expect(out).toBe('ready\n');
  return child;
}

/** A pid no process has: that of a process that ran and was reaped. */
function gonePid(): number {
  const ran = spawnSync('true');
  expect(existsSync(`/proc/${ran.pid}`)).toBe(false);
  return ran.pid;
}

/** Polls `done` until it holds, for at most 30 s (a loaded machine tears namespaces down slowly). */
async function waitUntilAsync(done: () => boolean): Promise<void> {
  const deadline = Date.now() + 30_000;
  while (!done() && Date.now() < deadline) await new Promise((tick) => setTimeout(tick, 20));
}

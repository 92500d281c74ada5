import { spawnSync } from 'node:child_process';
import { setTimeout as sleep } from 'node:timers/promises';
import { afterAll, describe, expect, it } from 'vitest';
import { findCgroupLayout } from '../../../src/engine/sandbox/cgroup-layout.js';
import { EngineCgroup } from '../../../src/engine/sandbox/engine-cgroup.js';

const layout = findCgroupLayout();

// What an engine's cgroup refused, as each run reads it (run-relay.ts): a run begun just after
// another ended starts from that run's closing reading, and every other reading is taken anew,
// so a refusal is never missed. The refusals here are real: a shell joins a cgroup bounded to
// one process, then forks.
describe.runIf(!('missing' in layout))('the refusal counters of an engine cgroup', () => {
  const cgroup = 'missing' in layout ? undefined : new EngineCgroup(layout, { memoryBytes: 64 * 1024 * 1024, pids: 1 });
  afterAll(() => cgroup?.remove());

  /** A shell that writes itself into the cgroup, then forks past its bound of one process. */
  function refuseAFork(): void {
    const join = cgroup!.procsFiles.map((file) => `echo $$ > ${file}`).join('; ');
    const ran = spawnSync('sh', ['-c', `${join}; /bin/true`], { encoding: 'utf8' });
    expect(ran.stderr).toMatch(/Cannot fork/);
  }

  it('reuses a reading begun within maxAgeMs, and reads anew without one or past it', async () => {
    const first = cgroup!.refusals();
    refuseAFork();
    // The refusal came after the last reading: within the age asked, that reading stands.
    expect(cgroup!.refusals(60_000)).toEqual(first);
    const fresh = cgroup!.refusals();
    expect(fresh).toEqual({ forksRefused: first.forksRefused + 1, oomKills: first.oomKills });

    await sleep(20);
    refuseAFork();
    // The last reading began more than 1 ms ago: read again, and the new refusal is in it.
    expect(cgroup!.refusals(1)).toEqual({ forksRefused: fresh.forksRefused + 1, oomKills: fresh.oomKills });
  });
});

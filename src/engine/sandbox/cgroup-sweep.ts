import { readdirSync, rmdirSync } from 'node:fs';
import { join } from 'node:path';

// The names of engine cgroups, and the sweep of those a gone service left behind. A service
// killed outright (SIGKILL, an OOM kill, a crash) cannot remove its engines' cgroups; its
// engines die with their channel, and their cgroups are left empty. Every service sweeps the
// parents it makes its engines' cgroups in each time it makes one, so a leftover is removed by
// the next engine booted there, whenever its owner died.

/** Every engine cgroup's name starts so: `plurnk-execs-<service pid>-<n>`. */
const PREFIX = 'plurnk-execs-';
const NAME = /^plurnk-execs-(\d{1,10})-\d{1,10}$/;

/** The name of this service's `n`th engine cgroup. */
export function engineCgroupName(n: number, pid = process.pid): string {
  return `${PREFIX}${pid}-${n}`;
}

/** The service pid an engine cgroup's name carries, or undefined for any other name. */
export function ownerOfCgroup(name: string): number | undefined {
  const pid = NAME.exec(name)?.[1];
  return pid === undefined ? undefined : Number(pid);
}

/**
 * Removes the engine cgroups in `parent` whose service is gone (no process has its pid, as
 * `isAlive` says), and returns their paths. Never one of this process's, nor one of a live
 * pid's (a pid the kernel reused keeps its cgroups: kept is safe, removed is not), nor one still
 * in use: `rmdir` of a cgroup that holds a process or a child cgroup fails (EBUSY), which the
 * kernel checks atomically where a read of `cgroup.procs` first could not. Never throws.
 */
export function sweepStaleCgroups(parent: string, isAlive: (pid: number) => boolean = pidAlive): string[] {
  let names: string[];
  try {
    names = readdirSync(parent);
  } catch {
    return [];
  }
  const removed: string[] = [];
  for (const name of names) {
    const pid = ownerOfCgroup(name);
    if (pid === undefined || pid === process.pid || isAlive(pid)) continue;
    const dir = join(parent, name);
    if (removeCgroup(dir)) removed.push(dir);
  }
  return removed;
}

/** True once cgroup `dir` is gone (removed now, or already); false while it is in use or cannot be removed. */
export function removeCgroup(dir: string): boolean {
  try {
    rmdirSync(dir);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'ENOENT';
  }
}

/** Whether a process has `pid` (one this user may not signal counts: EPERM says it exists). */
function pidAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
}

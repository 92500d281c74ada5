import { accessSync, constants, readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { isUnder, readMountTable, type MountEntry } from './mount-table.js';

// Where this service may make a cgroup for each engine: under its own cgroup, in cgroup v2
// where the memory and pids controllers are delegated to new cgroups there (or to its parent,
// systemd's `Delegate=` pattern, the service in a leaf of a delegated subtree), else in the v1
// memory and pids hierarchies where this user may write them (as root). Anything else is no
// cgroup, and the reason says why (docs/isolation.md, *Hard bounds*).

/** The directories engine cgroups are made in: one per v1 hierarchy, or one v2 parent. */
export type CgroupLayout = { version: 2; parent: string } | { version: 1; memory: string; pids: string };

/** Where this process's cgroups are: `/proc/self/cgroup` and the mount table. Tests pass their own. */
export interface CgroupSources {
  /** `/proc/self/cgroup`'s text: `<id>:<controllers>:<path>` lines (`0::<path>` is v2). */
  readonly procCgroup: string;
  readonly mounts: readonly MountEntry[];
}

/** The layout engines get here, or why there is none. */
export function findCgroupLayout(sources: CgroupSources | null = readSources()): CgroupLayout | { missing: string } {
  if (sources === null) return { missing: 'this process has no cgroup (not Linux)' };
  const v2 = findV2(sources);
  if (typeof v2 === 'string') {
    const v1 = findV1(sources);
    return typeof v1 === 'string' ? { missing: `no writable cgroup: ${v2}; ${v1}` } : v1;
  }
  return v2;
}

function readSources(): CgroupSources | null {
  try {
    return { procCgroup: readFileSync('/proc/self/cgroup', 'utf8'), mounts: readMountTable() };
  } catch {
    return null;
  }
}

/** The v2 parent whose `cgroup.subtree_control` hands memory and pids to new cgroups and that this user may write, or why none. */
function findV2(sources: CgroupSources): CgroupLayout | string {
  const path = /^0::(\/.*)$/m.exec(sources.procCgroup)?.[1];
  const mount = sources.mounts.findLast((entry) => entry.fsType === 'cgroup2');
  if (path === undefined || mount === undefined) return 'no cgroup v2 here';
  const own = hierarchyDir(mount, path);
  if (own === undefined) return `cgroup v2: ${path} is outside the mounted hierarchy`;
  if (!hasMemoryAndPids(join(mount.at, 'cgroup.controllers')))
    return 'cgroup v2 has no memory and pids controllers here';
  const candidates = own === mount.at ? [own] : [own, dirname(own)];
  for (const parent of candidates) {
    if (hasMemoryAndPids(join(parent, 'cgroup.subtree_control')) && writable(parent)) return { version: 2, parent };
  }
  return `cgroup v2: ${candidates.join(' and ')} delegate no memory and pids controllers to cgroups this user may make`;
}

/** Whether a cgroup v2 controller list names both controllers an engine's bounds need. */
function hasMemoryAndPids(path: string): boolean {
  const controllers = readText(path)?.split(/\s+/) ?? [];
  return controllers.includes('memory') && controllers.includes('pids');
}

/** The v1 memory and pids directories of this process, when this user may write both, or why not. */
function findV1(sources: CgroupSources): CgroupLayout | string {
  const dirs: Partial<Record<'memory' | 'pids', string>> = {};
  for (const controller of ['memory', 'pids'] as const) {
    const path = new RegExp(`^\\d+:(?:[^:]*,)?${controller}(?:,[^:]*)?:(/.*)$`, 'm').exec(sources.procCgroup)?.[1];
    const mount = sources.mounts.findLast(
      (entry) => entry.fsType === 'cgroup' && entry.superOptions.includes(controller),
    );
    if (path === undefined || mount === undefined) return `no cgroup v1 ${controller} hierarchy here`;
    const dir = hierarchyDir(mount, path);
    if (dir === undefined || !writable(dir))
      return `cgroup v1 ${controller} (${dir ?? path}) is not writable by uid ${process.getuid?.() ?? '?'} (v1 is usable as root)`;
    dirs[controller] = dir;
  }
  return { version: 1, memory: dirs.memory!, pids: dirs.pids! };
}

/** The directory of cgroup `path` in the hierarchy mounted by `mount` (a container may mount a subtree of it). */
function hierarchyDir(mount: MountEntry, path: string): string | undefined {
  if (!isUnder(path, mount.root)) return undefined;
  const dir = join(mount.at, mount.root === '/' ? path : path.slice(mount.root.length));
  return dir.length > 1 ? dir.replace(/\/+$/, '') : dir;
}

function writable(dir: string): boolean {
  try {
    accessSync(dir, constants.W_OK);
    return true;
  } catch {
    return false;
  }
}

function readText(path: string): string | undefined {
  try {
    return readFileSync(path, 'utf8').trim();
  } catch {
    return undefined;
  }
}

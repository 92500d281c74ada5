import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { findCgroupLayout } from '../../../../src/engine/sandbox/cgroup-layout.js';
import { parseMountInfo } from '../../../../src/engine/sandbox/mount-table.js';
import { scratchDir } from '../../../helpers/scratch.js';

/** A fake cgroup tree under a scratch directory: each path a directory, each file with its text. */
function tree(files: Record<string, string>): string {
  const root = scratchDir('cgroup-layout');
  for (const [path, text] of Object.entries(files)) {
    mkdirSync(join(root, path, '..'), { recursive: true });
    writeFileSync(join(root, path), text);
  }
  return root;
}

/** A mountinfo line mounting `fsType` (with `superOptions`) at `at`. */
const mount = (id: number, at: string, fsType: string, superOptions: string) =>
  `${id} 1 0:${id} / ${at.replace(/ /g, '\\040')} rw,nosuid - ${fsType} ${fsType} ${superOptions}`;

// Where a service may make its engines' cgroups: v2 where memory and pids are delegated to its
// cgroup's children (or its parent's), else v1 where it may write the memory and pids
// hierarchies; never a guess, always a reason when none.
describe('the cgroup layout a service finds', () => {
  it('reads mountinfo, octal escapes and all', () => {
    const [entry] = parseMountInfo(`${mount(30, '/sys/fs/cgroup/my memory', 'cgroup', 'rw,memory')}\n`);
    expect(entry).toEqual({
      at: '/sys/fs/cgroup/my memory',
      root: '/',
      options: ['rw', 'nosuid'],
      fsType: 'cgroup',
      superOptions: ['rw', 'memory'],
    });
  });

  it('takes cgroup v2 where its own cgroup delegates memory and pids to new cgroups', () => {
    const root = tree({ 'cgroup.controllers': 'cpu memory pids', 'svc/cgroup.subtree_control': 'memory pids' });
    const sources = { procCgroup: '0::/svc\n', mounts: parseMountInfo(mount(1, root, 'cgroup2', 'rw')) };
    expect(findCgroupLayout(sources)).toEqual({ version: 2, parent: join(root, 'svc') });
  });

  it("takes its parent in cgroup v2 when the service runs in a leaf of a delegated subtree (systemd's Delegate=)", () => {
    const root = tree({
      'cgroup.controllers': 'memory pids',
      'unit/cgroup.subtree_control': 'memory pids',
      'unit/main/cgroup.subtree_control': '',
    });
    const sources = { procCgroup: '0::/unit/main\n', mounts: parseMountInfo(mount(1, root, 'cgroup2', 'rw')) };
    expect(findCgroupLayout(sources)).toEqual({ version: 2, parent: join(root, 'unit') });
  });

  it('falls back to the v1 memory and pids hierarchies where v2 holds no controllers', () => {
    const root = tree({ 'unified/cgroup.controllers': '', 'memory/svc/tasks': '', 'pids/tasks': '' });
    const procCgroup = '4:memory:/svc\n8:pids:/\n0::/\n';
    const mounts = parseMountInfo(
      [
        mount(1, join(root, 'unified'), 'cgroup2', 'rw'),
        mount(2, join(root, 'memory'), 'cgroup', 'rw,memory'),
        mount(3, join(root, 'pids'), 'cgroup', 'rw,pids'),
      ].join('\n'),
    );
    expect(findCgroupLayout({ procCgroup, mounts })).toEqual({
      version: 1,
      memory: join(root, 'memory', 'svc'),
      pids: join(root, 'pids'),
    });
  });

  it('says there is none, and why, with no hierarchy at all', () => {
    expect(findCgroupLayout({ procCgroup: '', mounts: [] })).toEqual({
      missing: 'no writable cgroup: no cgroup v2 here; no cgroup v1 memory hierarchy here',
    });
    expect(findCgroupLayout(null)).toEqual({ missing: 'this process has no cgroup (not Linux)' });
  });
});

import { describe, expect, it } from 'vitest';
import { permissionFlags } from '../../../src/engine/engine-command.js';

describe('permissionFlags', () => {
  it('turns the permission model on with reads, the given write directories, threads and children', () => {
    const flags = permissionFlags(['/srv/work', '/tmp']);
    const major = Number(process.versions.node.split('.')[0]);
    expect(flags[0]).toBe(major >= 22 ? '--permission' : '--experimental-permission');
    expect(flags).toEqual(
      expect.arrayContaining([
        '--allow-fs-read=*',
        '--allow-fs-write=/srv/work',
        '--allow-fs-write=/tmp',
        '--allow-worker',
        '--allow-child-process',
      ]),
    );
    expect(flags.filter((flag) => /inspector|addons|ffi/.test(flag))).toEqual([]);
  });

  it('names each write directory once, however it was spelled: Node 20 crashes on one given twice', () => {
    // The default list is the host's cwd and the temp directory: one directory when the host runs in /tmp.
    expect(
      permissionFlags(['/tmp', '/tmp/', '/srv/work', '/srv/work/../work']).filter((f) =>
        f.startsWith('--allow-fs-write'),
      ),
    ).toEqual(['--allow-fs-write=/tmp', '--allow-fs-write=/srv/work']);
  });

  it('allows native addons only when asked', () => {
    expect(permissionFlags(['/tmp']).includes('--allow-addons')).toBe(false);
    expect(permissionFlags(['/tmp'], true)).toContain('--allow-addons');
  });

  it('allows sockets exactly where this Node puts them under the model, since the engine channel is one', () => {
    // Node 20 has no --allow-net (passing it is a bad option); Node ≥ 25 refuses new net.Socket without it.
    expect(permissionFlags([]).includes('--allow-net')).toBe(process.allowedNodeEnvironmentFlags.has('--allow-net'));
  });
});

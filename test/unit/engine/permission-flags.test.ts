import { describe, expect, it } from 'vitest';
import { engineCommand, engineEntryPath, permissionFlags } from '../../../src/engine/engine-command.js';

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

  it('allows the network exactly where this Node puts it under the model, as the thread tier does', () => {
    // Node 20 has no --allow-net (passing it is a bad option); Node ≥ 25 refuses a leaf's sockets
    // without it, and the engine's own channel (a net.Socket over a Unix socketpair).
    expect(permissionFlags([]).includes('--allow-net')).toBe(process.allowedNodeEnvironmentFlags.has('--allow-net'));
  });
});

describe('engineCommand under PLURNK_EXECS_ENGINE_PROF_DIR (a bench aid)', () => {
  it('adds V8’s tick log into that directory, before the entry, and nothing without it', () => {
    const saved = process.env.PLURNK_EXECS_ENGINE_PROF_DIR;
    try {
      delete process.env.PLURNK_EXECS_ENGINE_PROF_DIR;
      expect(engineCommand(['/tmp']).args.filter((arg) => /--prof|--logfile|--cpu-prof/.test(arg))).toEqual([]);
      process.env.PLURNK_EXECS_ENGINE_PROF_DIR = '/tmp/engine-prof';
      const { args } = engineCommand(['/tmp']);
      const at = args.indexOf('--prof');
      expect(args.slice(at, at + 2)).toEqual(['--prof', '--logfile=/tmp/engine-prof/engine-%p.log']);
      expect(args.at(-1)).toBe(engineEntryPath());
    } finally {
      if (saved === undefined) delete process.env.PLURNK_EXECS_ENGINE_PROF_DIR;
      else process.env.PLURNK_EXECS_ENGINE_PROF_DIR = saved;
    }
  });
});

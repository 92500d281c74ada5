import { chmodSync, mkdirSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { diffSnapshots, snapshotCwd } from '../../../src/check/cwd-snapshot.js';
import { scratchDir } from '../../helpers/scratch.js';

describe('a snapshot of a run’s cwd, before and after', () => {
  it('names what was created, changed and removed, directories ending in a slash', () => {
    const dir = scratchDir('cwd-snapshot');
    writeFileSync(join(dir, 'kept.txt'), 'same');
    writeFileSync(join(dir, 'grows.txt'), 'a');
    writeFileSync(join(dir, 'gone.txt'), 'x');
    writeFileSync(join(dir, 'mode.sh'), 'echo');
    const before = snapshotCwd(dir);
    mkdirSync(join(dir, 'out'));
    writeFileSync(join(dir, 'out', 'new.txt'), 'new');
    writeFileSync(join(dir, 'grows.txt'), 'ab');
    chmodSync(join(dir, 'mode.sh'), 0o755);
    rmSync(join(dir, 'gone.txt'));
    symlinkSync('kept.txt', join(dir, 'link'));
    expect(diffSnapshots(before, snapshotCwd(dir))).toEqual({
      created: 3,
      changed: 2,
      removed: 1,
      paths: ['+link', '+out/', '+out/new.txt', '~grows.txt', '~mode.sh', '-gone.txt'],
    });
  });

  it('finds nothing changed in a directory nobody touched', () => {
    const dir = scratchDir('cwd-snapshot');
    writeFileSync(join(dir, 'a'), 'a');
    expect(diffSnapshots(snapshotCwd(dir), snapshotCwd(dir))).toEqual({
      created: 0,
      changed: 0,
      removed: 0,
      paths: [],
    });
  });

  it('lists the first twelve paths and counts them all', () => {
    const dir = scratchDir('cwd-snapshot');
    const before = snapshotCwd(dir);
    for (let i = 10; i < 40; i++) writeFileSync(join(dir, `f${i}`), '');
    const changes = diffSnapshots(before, snapshotCwd(dir))!;
    expect(changes.created).toBe(30);
    expect(changes.paths).toEqual(Array.from({ length: 12 }, (_, i) => `+f${i + 10}`));
  });

  it('takes no snapshot of a directory with more entries than its bound, however deep', () => {
    const dir = scratchDir('cwd-snapshot');
    mkdirSync(join(dir, 'deep'));
    for (let i = 0; i < 5; i++) writeFileSync(join(dir, 'deep', String(i)), '');
    expect(snapshotCwd(dir, 6)?.size).toBe(6);
    expect(snapshotCwd(dir, 5)).toBeNull();
    expect(diffSnapshots(null, snapshotCwd(scratchDir('cwd-snapshot')))).toBeNull();
  });
});

import { mkdirSync, mkdtempSync, realpathSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { afterAll, describe, expect, test } from 'vitest';
import { discover } from '../../../src/index.js';
import { findNodeModules, listPackageDirs } from '../../../src/discovery/scan-node-modules.js';
import { fixture } from '../../helpers/discovery-fixtures.js';

const scratch = realpathSync(mkdtempSync(join(tmpdir(), 'plurnk-scan-')));
afterAll(() => rmSync(scratch, { recursive: true, force: true }));

/** A project whose node_modules links a workspace package in, as npm workspaces do. */
function linkedProject(): string {
  const project = join(scratch, 'project');
  const target = fixture('symlinked') + '/packages/linked-exec';
  mkdirSync(join(project, 'node_modules', '@acme'), { recursive: true });
  symlinkSync(target, join(project, 'node_modules', '@acme', 'linked-exec'), 'dir');
  symlinkSync(target, join(project, 'node_modules', 'same-package-again'), 'dir');
  symlinkSync(join(scratch, 'nowhere'), join(project, 'node_modules', 'dangling'), 'dir');
  writeFileSync(join(project, 'node_modules', 'not-a-dir'), 'a stray file\n');
  return project;
}

describe('scanning node_modules', () => {
  test('a symlinked package is discovered by its real path, once, and broken links are skipped', async () => {
    const project = linkedProject();
    const real = realpathSync(fixture('symlinked') + '/packages/linked-exec');
    const { registry } = await discover({ cwd: project, env: {} });
    expect([...registry.keys()]).toEqual(['linked']);
    const entry = registry.get('linked');
    expect(entry?.packageDir).toBe(real);
    expect(entry?.entryUrl).toBe(pathToFileURL(join(real, 'index.js')).href);
    expect(entry?.details).toBe('Reached through a symlink.\n');
  });

  test('a directory with no node_modules up to the root gives an empty discovery', async () => {
    const lonely = join(scratch, 'lonely');
    mkdirSync(lonely);
    expect(await findNodeModules(lonely)).toBeUndefined();
    const discovery = await discover({ cwd: lonely, env: {} });
    expect(discovery.registry.size).toBe(0);
    expect(discovery.skipped).toEqual([]);
    expect(discovery.disabled).toEqual([]);
    expect(discovery.packageAttributions.size).toBe(0);
  });

  test('findNodeModules walks up to the nearest node_modules', async () => {
    expect(await findNodeModules(join(fixture('mixed'), 'app', 'lib'))).toBe(join(fixture('mixed'), 'node_modules'));
  });

  test('listPackageDirs lists scoped and unscoped packages sorted, skipping dot entries and files', async () => {
    const dirs = await listPackageDirs(join(fixture('mixed'), 'node_modules'));
    const names = dirs.map((dir) => dir.slice(realpathSync(join(fixture('mixed'), 'node_modules')).length + 1));
    expect(names).toEqual([
      '@acme/acme-execs-cobol',
      'array-kind',
      'broken-json',
      'no-package-json',
      'null-plurnk',
      'other-kind',
      'plain-library',
      'voices-exec',
    ]);
  });

  test('listPackageDirs of a missing directory is empty', async () => {
    expect(await listPackageDirs(join(scratch, 'missing'))).toEqual([]);
  });
});

// `check <dir>` over a directory of several leaf packages laid out like a node_modules: each
// leaf package checked, one summary table, exit 1 when any is not clean.
import { mkdirSync, symlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import type { CheckSetReport } from '../../../src/check/index.js';
import { runCli } from '../../helpers/run-cli.js';
import { scratchDir } from '../../helpers/scratch.js';
import { zooDirs } from '../../helpers/zoo.js';

const CHECK_FIXTURES = fileURLToPath(new URL('../../../fixtures/check', import.meta.url));

/** A node_modules-like directory: the named leaves linked in (one scoped), a package that is no leaf, and `.bin`. */
function leavesDir(links: Record<string, string>): string {
  const dir = scratchDir('check-packages');
  mkdirSync(join(dir, '@acme'));
  mkdirSync(join(dir, '.bin'));
  mkdirSync(join(dir, 'not-a-leaf'));
  writeFileSync(join(dir, 'not-a-leaf', 'package.json'), '{"name":"not-a-leaf","version":"1.0.0"}');
  for (const [name, target] of Object.entries(links)) symlinkSync(target, join(dir, name));
  return dir;
}

describe('check over a directory of leaf packages', () => {
  it('checks each leaf package, ends with one summary table, and exits 1 when any is not clean', async () => {
    const dir = leavesDir({
      healthy: zooDirs('healthy')[0]!,
      '@acme/exits-nonzero': `${CHECK_FIXTURES}/exits-nonzero-by-design`,
      'leaves-a-child': `${CHECK_FIXTURES}/leaves-a-child-behind`,
    });
    const { code, stdout } = await runCli(['check', dir, '--isolation', 'thread']);
    // Each package's own report, in install-name order, then the summary.
    const reports = [...stdout.matchAll(/^check (\S+) \(/gm)].map((match) => match[1]);
    expect(reports).toEqual(['check-exits-nonzero-by-design', 'zoo-healthy', 'check-leaves-a-child-behind']);
    const summary = stdout.slice(stdout.indexOf('summary: ')).trimEnd().split('\n');
    expect(summary[0]).toBe(`summary: 3 package(s) in ${dir}`);
    expect(summary[1]).toMatch(/^PACKAGE\s+TAGS\s+CLEAN\s+WARNING\s+NOT RUN\s+FAULT\s+VERDICT$/);
    expect(summary.slice(2, 5).map((line) => line.split(/\s{2,}/))).toEqual([
      ['check-exits-nonzero-by-design', '1', '0', '1', '0', '0', 'clean'],
      ['zoo-healthy', '1', '1', '0', '0', '0', 'clean'],
      ['check-leaves-a-child-behind', '1', '0', '0', '0', '1', 'NOT CLEAN'],
    ]);
    expect(summary.at(-1)).toBe('NOT CLEAN — 1 of 3 package(s) not clean');
    expect(code).toBe(1);
  }, 120_000);

  it('prints the set as check-set@2 JSON, clean when every package is, and not clean under --strict', async () => {
    const dir = leavesDir({
      healthy: zooDirs('healthy')[0]!,
      '@acme/exits-nonzero': `${CHECK_FIXTURES}/exits-nonzero-by-design`,
    });
    const lenient = await runCli(['check', dir, '--isolation', 'thread', '--json']);
    const set = JSON.parse(lenient.stdout) as CheckSetReport;
    expect(set).toMatchObject({ schema: 'plurnk-execs/check-set@2', dir, clean: true, strict: false });
    expect(set.packages.map((report) => [report.package.name, report.schema, report.clean])).toEqual([
      ['check-exits-nonzero-by-design', 'plurnk-execs/check@2', true],
      ['zoo-healthy', 'plurnk-execs/check@2', true],
    ]);
    expect(lenient.code).toBe(0);
    const strict = await runCli(['check', dir, '--isolation', 'thread', '--json', '--strict']);
    expect(JSON.parse(strict.stdout)).toMatchObject({ clean: false, strict: true });
    expect(strict.code).toBe(1);
  }, 120_000);

  it('says so when a directory holds no leaf package, and exits 1', async () => {
    const dir = leavesDir({});
    const { code, stderr } = await runCli(['check', dir]);
    expect(stderr).toBe(
      `plurnk-execs check: ${dir} holds no exec package: its package.json is missing, unreadable, or does not declare "plurnk": { "kind": "exec" }\n`,
    );
    expect(code).toBe(1);
  });
});

import { cpSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, test } from 'vitest';
import { discover } from '../../../src/index.js';
import { fixture } from '../../helpers/discovery-fixtures.js';
import { namedError } from '../../helpers/named-error.js';

const scratch = mkdtempSync(join(tmpdir(), 'plurnk-discovery-'));
afterAll(() => rmSync(scratch, { recursive: true, force: true }));

describe('a tag claimed twice fails hard', () => {
  test.each<[string, string[], string]>([
    [
      'two packages, first claimant first',
      ['@acme/first-sh', 'zeta-second-sh'],
      'Runtime tag collision on "sh": it is claimed by both "@acme/first-sh" (first) and "zeta-second-sh"',
    ],
    [
      'the same pair in the other order',
      ['zeta-second-sh', '@acme/first-sh'],
      'Runtime tag collision on "sh": it is claimed by both "zeta-second-sh" (first) and "@acme/first-sh"',
    ],
    [
      'one package declaring a tag twice',
      ['twice-declared'],
      'Runtime tag collision on "dup": package "twice-declared" declares it twice',
    ],
  ])('%s', async (_title, names, message) => {
    const error = await namedError(
      discover({ packageDirs: names.map((name) => fixture('collision', name)), env: {} }),
      'runtime-collision',
    );
    expect(error.message).toContain(message);
    expect(error.message).toMatch(/Fix: \S/);
  });

  test('scanning the installed tree fails on the first collision found in discovery order', async () => {
    const error = await namedError(
      discover({ ancestors: false, cwd: fixture('collision'), env: {} }),
      'runtime-collision',
    );
    expect(error.message).toContain('"dup"');
  });

  test('policy applies before the collision check, as 1.x: a disabled tag cannot collide', async () => {
    const dirs = ['@acme/first-sh', 'zeta-second-sh'].map((name) => fixture('collision', name));
    const { registry, disabled } = await discover({ packageDirs: dirs, env: { PLURNK_EXECS_SH: '0' } });
    expect(registry.has('sh')).toBe(false);
    expect(disabled).toEqual(['sh']);
  });

  test('one package installed in two places is named with both places', async () => {
    const copy = join(scratch, 'first-sh-copy');
    cpSync(fixture('collision', '@acme/first-sh'), copy, { recursive: true });
    const error = await namedError(
      discover({ packageDirs: [fixture('collision', '@acme/first-sh'), copy], env: {} }),
      'runtime-collision',
    );
    expect(error.message).toContain('package "@acme/first-sh" is installed twice');
    expect(error.message).toContain(copy);
  });
});

describe('a claimed package with a malformed manifest fails hard, naming it', () => {
  test.each<[string, string, string[]]>([
    [
      'runtimes that are not an array',
      'runtimes-not-array',
      [
        'Invalid exec manifest in package "runtimes-not-array"',
        '- plurnk.runtimes must be an array; received {"name":"x"}',
      ],
    ],
    [
      'neither runtimes nor a hook',
      'neither-runtimes-nor-module',
      ['- plurnk.runtimes is required unless runtimesModule names a hook; received nothing'],
    ],
    [
      'one bad runtime among good ones',
      'bad-declaration',
      [
        'package "bad-declaration", runtime "broken" (plurnk.runtimes[1])',
        '- summary must be one line; received "two\\nlines"',
      ],
    ],
    [
      'every bad runtime of a package, in one error',
      'two-bad-declarations',
      [
        'runtime "first" (plurnk.runtimes[0])',
        '- glyph must be a string; received 5',
        'runtime "third" (plurnk.runtimes[2])',
        '- summary must not be empty',
      ],
    ],
    [
      'a third party claiming a @plurnk/ attribution',
      'bad-attribution',
      ['package "bad-attribution"', '"@plurnk/not-yours" begins "@plurnk/", which is reserved'],
    ],
    ['an exports map without "."', 'no-dot-export', ['Invalid exec package "no-dot-export"', 'has no "." entry']],
  ])('%s', async (_title, name, parts) => {
    const error = await namedError(
      discover({ packageDirs: [fixture('invalid', name)], env: {} }),
      'invalid-declaration',
    );
    for (const part of parts) expect(error.message).toContain(part);
  });

  test('a claim without a package name names the directory', async () => {
    const error = await namedError(
      discover({ packageDirs: [fixture('invalid', 'nameless')], env: {} }),
      'invalid-declaration',
    );
    expect(error.message).toContain(`Invalid exec package at ${fixture('invalid', 'nameless')}`);
    expect(error.message).toContain('its name is nothing');
  });

  test('the whole discovery fails when any installed leaf is malformed', async () => {
    await namedError(discover({ ancestors: false, cwd: fixture('invalid'), env: {} }), 'invalid-declaration');
  });
});

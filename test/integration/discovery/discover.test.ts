import { realpathSync } from 'node:fs';
import { pathToFileURL } from 'node:url';
import { describe, expect, test } from 'vitest';
import { discover } from '../../../src/index.js';
import { fixture } from '../../helpers/discovery-fixtures.js';

const cobolDir = realpathSync(fixture('mixed', '@acme/acme-execs-cobol'));
const voicesDir = realpathSync(fixture('mixed', 'voices-exec'));

describe('discover over a node_modules holding one of everything', () => {
  test('registers exactly the exec leaves, scoped and unscoped, in discovery order', async () => {
    const { registry, skipped, disabled } = await discover({ ancestors: false, cwd: fixture('mixed'), env: {} });
    // Not leaves: broken JSON, no package.json, another kind, an array kind, no plurnk block,
    // and dot entries (.bin, @acme/.hidden) even though they claim exec.
    expect([...registry.keys()]).toEqual(['cobol', 'yell', 'whisper', 'mutter', 'plain']);
    expect(skipped).toEqual([]);
    expect(disabled).toEqual([]);
  });

  test('finds the nearest node_modules from a directory deep inside the project', async () => {
    const { registry } = await discover({ ancestors: false, cwd: `${fixture('mixed')}/app/lib`, env: {} });
    expect([...registry.keys()]).toEqual(['cobol', 'yell', 'whisper', 'mutter', 'plain']);
  });

  test('an entry carries its declaration, owner, real directory, entry URL and attribution', async () => {
    const { registry } = await discover({ ancestors: false, cwd: fixture('mixed'), env: {} });
    expect(registry.get('cobol')).toEqual({
      runtime: 'cobol',
      glyph: '🗄',
      summary: 'Run a COBOL program.',
      invocation: {
        body: { role: 'COBOL program', required: true },
        exclusive: false,
        example: { body: "DISPLAY 'HELLO'." },
      },
      details: 'COBOL runs in **fixed** format.\n\n## Notes\n\nSee the manual.\n',
      packageName: '@acme/acme-execs-cobol',
      packageDir: cobolDir,
      entryUrl: pathToFileURL(`${cobolDir}/index.js`).href,
      // 1.x projects a declared string as written.
      attribution: '@acme/widgets',
    });
    const yell = registry.get('yell');
    expect(yell?.glyph).toBe('');
    expect(yell?.entryUrl).toBe(pathToFileURL(`${voicesDir}/lib/main.js`).href);
    expect(yell).not.toHaveProperty('attribution');
    expect(Object.isFrozen(yell)).toBe(true);
  });

  test.each<[string, string]>([
    // docs/<tag>.md wins; an exact "# <tag>" first line and the blank line after it go.
    ['cobol', 'COBOL runs in **fixed** format.\n\n## Notes\n\nSee the manual.\n'],
    // CRLF docs work: the title is still recognised and the text comes back with \n.
    ['yell', 'YELL **LOUDLY**.\n\nTwo paragraphs.\n'],
    // No docs file: the inline field.
    ['whisper', 'Inline whisper details.'],
    // A docs file without the title line is kept whole, and still wins over the inline field.
    ['mutter', 'Mutter has no title line.\n\n# mutter\n'],
    // Neither: '' (1.x's "no details").
    ['plain', ''],
  ])('details of %s', async (tag, details) => {
    const { registry } = await discover({ ancestors: false, cwd: fixture('mixed'), env: {} });
    expect(registry.get(tag)?.details).toBe(details);
  });

  test('packageAttributions holds each package that declares attribution once, and no other', async () => {
    const { packageAttributions } = await discover({ ancestors: false, cwd: fixture('mixed'), env: {} });
    expect([...packageAttributions]).toEqual([['@acme/acme-execs-cobol', ['@acme/widgets']]]);
  });

  test.each<[string, NodeJS.ProcessEnv, string[], string[], string[]]>([
    [
      'a per-tag 0',
      { PLURNK_EXECS_YELL: '0' },
      ['cobol', 'whisper', 'mutter', 'plain'],
      ['yell'],
      ['@acme/acme-execs-cobol'],
    ],
    ['a lowercase false', { plurnk_execs_cobol: 'false' }, ['yell', 'whisper', 'mutter', 'plain'], ['cobol'], []],
    [
      'an allowlist',
      { PLURNK_EXECS_ONLY: 'mutter, COBOL' },
      ['cobol', 'mutter'],
      ['plain', 'whisper', 'yell'],
      ['@acme/acme-execs-cobol'],
    ],
    [
      'an allowlist that drops a whole package',
      { PLURNK_EXECS_ONLY: 'cobol' },
      ['cobol'],
      ['mutter', 'plain', 'whisper', 'yell'],
      ['@acme/acme-execs-cobol'],
    ],
    ['an empty allowlist', { PLURNK_EXECS_ONLY: '' }, [], ['cobol', 'mutter', 'plain', 'whisper', 'yell'], []],
    [
      'an allowlist and a 0 together',
      { PLURNK_EXECS_ONLY: 'yell,cobol', PLURNK_EXECS_YELL: '0' },
      ['cobol'],
      ['mutter', 'plain', 'whisper', 'yell'],
      ['@acme/acme-execs-cobol'],
    ],
  ])(
    'policy: %s removes tags from the registry into disabled (sorted)',
    async (_title, env, registered, disabledTags, packages) => {
      const discovery = await discover({ ancestors: false, cwd: fixture('mixed'), env });
      expect([...discovery.registry.keys()]).toEqual(registered);
      expect(discovery.disabled).toEqual(disabledTags);
      expect([...discovery.packageAttributions.keys()]).toEqual(packages);
    },
  );

  test('packageDirs loads exactly the given packages, in the given order, instead of scanning', async () => {
    const { registry } = await discover({
      packageDirs: [
        fixture('mixed', 'voices-exec'),
        fixture('mixed', 'other-kind'),
        fixture('mixed', '@acme/acme-execs-cobol'),
      ],
      env: {},
    });
    expect([...registry.keys()]).toEqual(['yell', 'whisper', 'mutter', 'plain', 'cobol']);
  });

  test('the same package directory given twice is loaded once', async () => {
    const dir = fixture('mixed', '@acme/acme-execs-cobol');
    const { registry } = await discover({ packageDirs: [dir, dir], env: {} });
    expect([...registry.keys()]).toEqual(['cobol']);
  });

  test('the env defaults to process.env, and the supplied env is never mutated', async () => {
    const env = { PLURNK_EXECS_YELL: '0' };
    const discovery = await discover({ ancestors: false, cwd: fixture('mixed'), env });
    expect(env).toEqual({ PLURNK_EXECS_YELL: '0' });
    expect(discovery.env).not.toBe(env);
    const fromProcess = await discover({ ancestors: false, cwd: fixture('mixed') });
    expect(fromProcess.env.PLURNK_EXECS_ERROR_DETAIL_LIMIT).toBe(process.env.PLURNK_EXECS_ERROR_DETAIL_LIMIT);
  });
});

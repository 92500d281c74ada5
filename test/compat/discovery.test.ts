// Discovery as 1.x did it (reference §1.2–§1.4, §4 "discover" and "policy.test"), from
// packages written into a scratch tree outside this repository, so no ancestor node_modules
// of the repo joins in.
import { mkdirSync, mkdtempSync, realpathSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, afterEach, describe, expect, test } from 'vitest';
import {
  discover,
  Policy,
  RuntimeTag,
  type ExecInfo,
  type ExecRegistry,
  type RuntimeTargetKind,
} from '../../src/index.js';
import { namedError } from '../helpers/named-error.js';

const scratch = realpathSync(mkdtempSync(join(tmpdir(), 'plurnk-compat-discovery-')));
afterAll(() => rmSync(scratch, { recursive: true, force: true }));
let trees = 0;

/** A current-shape declaration of `name`. */
function current(name: string, extra: Record<string, unknown> = {}): Record<string, unknown> {
  return {
    name,
    summary: `Run ${name}.`,
    invocation: { body: { role: `${name} program`, required: true }, example: { body: 'x' } },
    ...extra,
  };
}

/** Writes an installed exec package `name` with `plurnk` fields under `nodeModules`; returns its dir. */
function install(nodeModules: string, name: string, plurnk: Record<string, unknown>): string {
  const dir = join(nodeModules, name);
  mkdirSync(dir, { recursive: true });
  const manifest = {
    name,
    version: '1.4.0',
    type: 'module',
    exports: './index.js',
    plurnk: { kind: 'exec', ...plurnk },
  };
  writeFileSync(join(dir, 'package.json'), JSON.stringify(manifest));
  writeFileSync(join(dir, 'index.js'), 'export default class {}\n');
  return dir;
}

/** A fresh project directory in the scratch tree. */
function project(): string {
  const dir = join(scratch, `project-${++trees}`);
  mkdirSync(dir, { recursive: true });
  return dir;
}

describe('manifests published up to 1.5 are read the legacy way, with a notice', () => {
  test.each<[string, Record<string, unknown>, Record<string, unknown>]>([
    [
      'a 1.2–1.5 "## EXEC0 [tag]" example',
      { name: 'git', glyph: '🔀', example: '## EXEC0 [git]\nstatus --short' },
      { example: { body: 'status --short' } },
    ],
    [
      'a heading with a target, the first of several',
      { name: 'git', example: '## EXEC0 [git] (./sub)\nstatus\n\n## EXEC0 [git]\nlog' },
      { example: { body: 'status', target: './sub' } },
    ],
    [
      'an up-to-1.1 "<<EXEC[tag]:body:EXEC" example',
      { name: 'perl', glyph: '🐪', example: "<<EXEC[perl]:print join(',', 1..5):EXEC" },
      { example: { body: "print join(',', 1..5)" } },
    ],
    [
      'a 1.1 sh example whose statements name no tag, with a target and a marker slot',
      { name: 'sh', example: '<<EXEC:uname -sr:EXEC\n<<EXEC[sh](build.sh)::EXEC\n<<EXEC<-1,300>:npm test:EXEC' },
      { example: { body: 'uname -sr' } },
    ],
    ['a glyph-only tag', { name: 'bash', glyph: '🐚' }, { signature: '<bash input>' }],
    [
      'an example for another tag only',
      { name: 'python3', example: '<<EXEC[python]:print(1):EXEC' },
      { signature: '<python3 input>' },
    ],
    [
      'a multi-line body, which a one-line example cannot hold',
      { name: 'git', example: '## EXEC0 [git]\nstatus\nlog' },
      { signature: '<git input>' },
    ],
  ])('%s', async (_title, decl, witness) => {
    const nm = join(project(), 'node_modules');
    install(nm, '@acme/plurnk-execs-legacy', { runtimes: [decl] });
    const discovery = await discover({ cwd: join(nm, '..'), env: {} });
    const name = decl.name as string;
    const info = discovery.registry.get(name)!;
    expect(info).toMatchObject({
      runtime: name,
      glyph: (decl.glyph as string | undefined) ?? '',
      summary: `${name} executor from @acme/plurnk-execs-legacy`,
      details: '',
      packageName: '@acme/plurnk-execs-legacy',
    });
    expect(info.invocation).toEqual({
      body: { role: `${name} input`, required: false },
      target: { role: 'target, passed to the executor as written', required: false, kind: 'literal' },
      exclusive: false,
      ...witness,
    });
    expect(discovery.notices).toHaveLength(1);
    expect(discovery.notices?.[0]).toMatchObject({ packageName: '@acme/plurnk-execs-legacy', runtimes: [name] });
    expect(discovery.notices?.[0]?.message).toContain('package "@acme/plurnk-execs-legacy"');
    expect(discovery.notices?.[0]?.message).toContain('declare "summary" and "invocation"');
  });

  test('0.4.x inline documentation becomes details; docs/<tag>.md still wins', async () => {
    const nm = join(project(), 'node_modules');
    const dir = install(nm, 'old-docs', {
      runtimes: [
        { name: 'inline', documentation: 'Inline docs.' },
        { name: 'filed', documentation: 'Loses to the file.' },
      ],
    });
    mkdirSync(join(dir, 'docs'));
    writeFileSync(join(dir, 'docs', 'filed.md'), '# filed\n\nFrom the file.\n');
    const { registry } = await discover({ cwd: join(nm, '..'), env: {} });
    expect(registry.get('inline')?.details).toBe('Inline docs.');
    expect(registry.get('filed')?.details).toBe('From the file.\n');
  });

  test('a current-shape package gets no notice', async () => {
    const nm = join(project(), 'node_modules');
    install(nm, 'modern', { runtimes: [current('modern')] });
    expect((await discover({ cwd: join(nm, '..'), env: {} })).notices).toEqual([]);
  });

  test('the current shape stays strict: example beside summary/invocation is refused', async () => {
    const nm = join(project(), 'node_modules');
    install(nm, 'half-migrated', { runtimes: [current('broken', { example: '## EXEC0 [broken]\nx' })] });
    const error = await namedError(discover({ cwd: join(nm, '..'), env: {} }), 'invalid-declaration');
    expect(error.message).toContain('package "half-migrated"');
    expect(error.message).toMatch(/example/);
  });

  test('a legacy declaration with a bad tag name fails hard like any other', async () => {
    const nm = join(project(), 'node_modules');
    install(nm, 'bad-legacy', { runtimes: [{ name: 'Alias', glyph: 'x' }] });
    const error = await namedError(discover({ cwd: join(nm, '..'), env: {} }), 'invalid-declaration');
    expect(error.message).toContain('package "bad-legacy"');
  });
});

describe('a declaration of only { name, invocation }, as an early 1.x consumer admitted it', () => {
  test('is admitted with the neutral summary and a notice naming the package', async () => {
    const nm = join(project(), 'node_modules');
    const invocation = { body: { role: 'query', required: true }, example: { body: 'x' } };
    install(nm, '@acme/plurnk-execs-terse', { runtimes: [{ name: 'terse', invocation }, current('full')] });
    const discovery = await discover({ cwd: join(nm, '..'), env: {} });
    expect(discovery.registry.get('terse')).toMatchObject({
      summary: 'terse executor from @acme/plurnk-execs-terse',
      invocation: { body: { role: 'query', required: true }, example: { body: 'x' } },
    });
    expect(discovery.registry.get('full')?.summary).toBe('Run full.');
    expect(discovery.notices).toEqual([
      {
        packageName: '@acme/plurnk-execs-terse',
        runtimes: ['terse'],
        message: expect.stringContaining('package "@acme/plurnk-execs-terse" declares "terse" without a "summary"'),
      },
    ]);
    expect(discovery.notices?.[0]?.message).toContain('Fix: declare "summary"');
  });

  test('its invocation is still validated strictly', async () => {
    const nm = join(project(), 'node_modules');
    install(nm, 'terse-broken', { runtimes: [{ name: 'terse', invocation: { body: { role: 'q' } } }] });
    const error = await namedError(discover({ cwd: join(nm, '..'), env: {} }), 'invalid-declaration');
    expect(error.message).toContain('package "terse-broken"');
    expect(error.message).toContain('invocation.example is required');
  });
});

describe('the later 1.x declaration fields', () => {
  test('resourcesPath is carried in ExecInfo when declared, and absent when not', async () => {
    const nm = join(project(), 'node_modules');
    install(nm, 'documented', { runtimes: [current('docd', { resourcesPath: '/tools' }), current('plain')] });
    const { registry } = await discover({ cwd: join(nm, '..'), env: {} });
    const resourcesPath: string | undefined = registry.get('docd')?.resourcesPath;
    expect(resourcesPath).toBe('/tools');
    expect(registry.get('plain')).not.toHaveProperty('resourcesPath');
  });

  test.each([['tools'], [''], [5]])('resourcesPath %j, not an absolute pathname, is refused', async (resourcesPath) => {
    const nm = join(project(), 'node_modules');
    install(nm, 'misdocumented', { runtimes: [current('docd', { resourcesPath })] });
    const error = await namedError(discover({ cwd: join(nm, '..'), env: {} }), 'invalid-declaration');
    expect(error.message).toContain('resourcesPath');
  });

  test('an inputSchema stands instead of an example or signature, carried as written and frozen', async () => {
    const nm = join(project(), 'node_modules');
    const inputSchema = { type: 'object', properties: { q: { type: 'string' } }, required: ['q'] };
    const invocation = { body: { role: 'JSON arguments', required: true }, inputSchema };
    install(nm, 'schematic', { runtimes: [current('schema', { invocation })] });
    const { registry } = await discover({ cwd: join(nm, '..'), env: {} });
    const carried = registry.get('schema')?.invocation;
    expect(carried?.inputSchema).toEqual(inputSchema);
    expect(carried).not.toHaveProperty('example');
    expect(Object.isFrozen(carried?.inputSchema?.properties)).toBe(true);
  });

  test('an inputSchema beside an example is refused: exactly one witness', async () => {
    const nm = join(project(), 'node_modules');
    const invocation = { body: { role: 'q', required: true }, example: { body: '{}' }, inputSchema: {} };
    install(nm, 'two-witnesses', { runtimes: [current('both', { invocation })] });
    const error = await namedError(discover({ cwd: join(nm, '..'), env: {} }), 'invalid-declaration');
    expect(error.message).toContain('invocation.inputSchema is declared together with an example');
  });
});

describe('the later target kind "script"', () => {
  test('is accepted', async () => {
    const nm = join(project(), 'node_modules');
    const invocation = {
      body: { role: 'stdin', required: false },
      target: { role: 'script file', required: true, kind: 'script' },
      example: { target: 'job.sh' },
    };
    install(nm, 'scripted', { runtimes: [current('run', { invocation })] });
    const { registry } = await discover({ cwd: join(nm, '..'), env: {} });
    const kind: RuntimeTargetKind | undefined = registry.get('run')?.invocation.target?.kind;
    expect(kind).toBe('script');
  });

  test('never with directory: "cwd" (a script is never a directory)', async () => {
    const nm = join(project(), 'node_modules');
    const invocation = {
      body: { role: 'stdin', required: false },
      target: { role: 'script file', required: true, kind: 'script', directory: 'cwd' },
      example: { target: 'job.sh' },
    };
    install(nm, 'scripted-dir', { runtimes: [current('run', { invocation })] });
    const error = await namedError(discover({ cwd: join(nm, '..'), env: {} }), 'invalid-declaration');
    expect(error.message).toContain('"script"');
  });
});

describe('the plurnk block, attribution and ExecInfo', () => {
  test('the plurnk block tolerates keys it does not read', async () => {
    const nm = join(project(), 'node_modules');
    install(nm, 'later-keys', { runtimes: [current('later')], expandTools: true, resources: './r' });
    expect([...(await discover({ cwd: join(nm, '..'), env: {} })).registry.keys()]).toEqual(['later']);
  });

  test('attribution: a string is projected as written, a list as a copy, none adds no key', async () => {
    const nm = join(project(), 'node_modules');
    install(nm, 'a-string', { runtimes: [current('one'), current('two')], attribution: '@acme/one' });
    install(nm, 'b-list', { runtimes: [current('three')], attribution: ['@acme/x', '@acme/y'] });
    install(nm, 'c-empty', { runtimes: [current('four')], attribution: [] });
    install(nm, 'd-none', { runtimes: [current('five')] });
    const { registry, packageAttributions } = await discover({ cwd: join(nm, '..'), env: {} });
    expect(registry.get('one')?.attribution).toBe('@acme/one');
    expect(registry.get('two')?.attribution).toBe('@acme/one');
    expect(registry.get('three')?.attribution).toEqual(['@acme/x', '@acme/y']);
    expect(registry.get('four')).not.toHaveProperty('attribution');
    expect(registry.get('five')).not.toHaveProperty('attribution');
    // One entry per package, only for a non-empty list.
    expect([...packageAttributions]).toEqual([
      ['a-string', ['@acme/one']],
      ['b-list', ['@acme/x', '@acme/y']],
    ]);
  });

  test('an entry has exactly the 1.x ExecInfo fields plus where the executor lives', async () => {
    const nm = join(project(), 'node_modules');
    const dir = install(nm, 'shape', { runtimes: [current('shape', { glyph: '◆' })] });
    const registry: ExecRegistry = (await discover({ cwd: join(nm, '..'), env: {} })).registry;
    const info: ExecInfo = registry.get('shape')!;
    expect(Object.keys(info).sort()).toEqual(
      ['details', 'entryUrl', 'glyph', 'invocation', 'packageDir', 'packageName', 'runtime', 'summary'].sort(),
    );
    expect(info).toMatchObject({ runtime: 'shape', glyph: '◆', summary: 'Run shape.', details: '', packageDir: dir });
  });
});

describe('the scan walks like 1.x', () => {
  test('nearest node_modules and every ancestor; the nearest package wins by name', async () => {
    const outer = project();
    const inner = join(outer, 'workspace', 'app');
    install(join(outer, 'node_modules'), '@plurnk/plurnk-execs-hoisted', { runtimes: [current('hoisted')] });
    install(join(outer, 'node_modules'), 'shadowed', { runtimes: [current('far')] });
    install(join(inner, 'node_modules'), '@acme/near', { runtimes: [current('near')] });
    install(join(inner, 'node_modules'), 'shadowed', { runtimes: [current('close')] });
    mkdirSync(join(inner, 'src'));
    const { registry } = await discover({ cwd: join(inner, 'src'), env: {} });
    expect([...registry.keys()]).toEqual(['near', 'close', 'hoisted']);
    const sealed = await discover({ cwd: join(inner, 'src'), env: {}, ancestors: false });
    expect([...sealed.registry.keys()]).toEqual(['near', 'close']);
  });

  test('a missing node_modules gives an empty registry', async () => {
    const { registry, packageAttributions } = await discover({ cwd: project(), env: {} });
    expect(registry.size).toBe(0);
    expect(packageAttributions.size).toBe(0);
  });
});

describe('policy before collisions, as 1.x (reference §1.2 steps 8–9, §4)', () => {
  const tree = () => {
    const nm = join(project(), 'node_modules');
    install(nm, '@plurnk/plurnk-execs-search', { runtimes: [current('search')] });
    install(nm, '@plurnk/plurnk-execs-othersearch', { runtimes: [current('search')] });
    install(nm, '@plurnk/plurnk-execs-common', { runtimes: [current('sh'), current('node')] });
    return join(nm, '..');
  };

  test('the collision names both packages, first claimant first', async () => {
    const error = await namedError(discover({ cwd: tree(), env: {} }), 'runtime-collision');
    expect(error.message).toMatch(
      /"search".*"@plurnk\/plurnk-execs-othersearch" \(first\) and "@plurnk\/plurnk-execs-search"/,
    );
  });

  test('a disabled tag cannot collide', async () => {
    const { registry, disabled } = await discover({ cwd: tree(), env: { PLURNK_EXECS_SEARCH: '0' } });
    expect([...registry.keys()]).toEqual(['sh', 'node']);
    expect(disabled).toEqual(['search']);
  });

  test.each<[string, NodeJS.ProcessEnv, string[], string[]]>([
    ['ONLY=sh registers sh and lists the rest, sorted', { PLURNK_EXECS_ONLY: 'sh' }, ['sh'], ['node', 'search']],
    ['an empty ONLY registers nothing', { PLURNK_EXECS_ONLY: '' }, [], ['node', 'search', 'sh']],
    [
      'PLURNK_EXECS_NODE=0 removes only node',
      { PLURNK_EXECS_NODE: '0', PLURNK_EXECS_SEARCH: 'false' },
      ['sh'],
      ['node', 'search'],
    ],
  ])('%s', async (_title, env, registered, disabled) => {
    const discovery = await discover({ cwd: tree(), env });
    expect([...discovery.registry.keys()]).toEqual(registered);
    expect(discovery.disabled).toEqual(disabled);
  });
});

describe('Policy and RuntimeTag as 1.x exports them (reference §1.3, §1.4)', () => {
  const saved = { ...process.env };
  afterEach(() => {
    for (const key of Object.keys(process.env)) if (!(key in saved)) delete process.env[key];
  });

  test('Policy.isEnabled reads process.env when no env is given', () => {
    expect(Policy.isEnabled('compat-probe')).toBe(true);
    process.env['PLURNK_EXECS_COMPAT-PROBE'] = '0';
    expect(Policy.isEnabled('compat-probe')).toBe(false);
    expect(Policy.isEnabled('compat-probe', {})).toBe(true);
  });

  test.each([
    ['PLURNK_EXECS_SH', true],
    ['PLURNK_EXECS_alias.tool', true],
    ['plurnk_execs_TOOL-V2', true],
    ['PLURNK_EXECS_C++', true],
    ['PLURNK_EXECS_only', true],
    ['PLURNK_EXECS_', false],
    ['PLURNK_EXECS_2FAST', false],
    ['PLURNK_EXECS_ALIAS_TOOL', false],
    ['PLURNK_EXECS_ERROR_DETAIL_LIMIT', false],
    ['PLURNK_PROVIDERS_SH', false],
  ])('Policy.isKey(%j) is %s', (key, expected) => {
    expect(Policy.isKey(key)).toBe(expected);
  });

  test.each([
    ['alias.tool', true],
    ['tool-v2', true],
    ['c++', true],
    ['Alias', false],
    ['_private', false],
    ['alias_tool', false],
    ['../escape', false],
    ['two words', false],
    ['only', false],
  ])('RuntimeTag.is(%j) is %s', (name, expected) => {
    expect(RuntimeTag.is(name)).toBe(expected);
  });
});

// The fixture leaves the service test boots, read by discovery from the fixture tree (which
// holds other engineers' compat leaves too).
test('the compat fixture tree: legacy tags, a script target, one notice', async () => {
  const cwd = fileURLToPath(new URL('../../fixtures/compat', import.meta.url));
  const discovery = await discover({ cwd, env: {}, ancestors: false });
  const mine = [...discovery.registry.values()].filter((info) =>
    /plurnk-execs-(oldstyle|neighbour)$/.test(info.packageName),
  );
  expect(mine.map((info) => info.runtime)).toEqual(['neighbour', 'oldgit', 'oldsh', 'oldglyph', 'oldscript']);
  expect(discovery.registry.get('oldscript')?.invocation.target?.kind).toBe('script');
  const notices = discovery.notices?.filter((notice) => notice.packageName === '@acme/plurnk-execs-oldstyle');
  expect(notices?.map((notice) => notice.runtimes)).toEqual([['oldgit', 'oldsh', 'oldglyph']]);
});

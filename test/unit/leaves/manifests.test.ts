import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import * as v from 'valibot';
import { describe, expect, it } from 'vitest';
import { checkInvocationBuckets, RuntimeDeclSchema } from '../../../src/index.js';
import { liveOrUnavailable, unavailableNote } from '../../helpers/interpreter-branch.js';
import { executorClass, executorFor, hostFor, LEAVES, LEAVES_DIR, leafPackage, runTag, TAGS } from './leaf-harness.js';
import { namedError } from '../../helpers/named-error.js';

const TAG_NAMES = [...TAGS.keys()];

describe('built-in leaf packages', () => {
  it('are the five of the default inventory, claiming every tag of §executor-default-inventory once', () => {
    expect([...LEAVES]).toEqual(['common', 'git', 'jq', 'sqlite', 'wasm']);
    expect(TAG_NAMES.sort()).toEqual([
      'awk',
      'bash',
      'bc',
      'bun',
      'deno',
      'git',
      'jq',
      'lua',
      'node',
      'perl',
      'php',
      'python',
      'python3',
      'ruby',
      'sh',
      'sqlite',
      'tcl',
      'wasm',
      'wat',
    ]);
  });

  it.each([...LEAVES])('%s is an ESM package exporting its built types first, peering on the framework', (leaf) => {
    const pkg = leafPackage(leaf);
    expect(pkg.name).toBe(`@plurnk/plurnk-execs-${leaf}`);
    expect(pkg.type).toBe('module');
    expect(pkg.exports?.['.']).toEqual({ types: './dist/index.d.ts', default: './dist/index.js' });
    expect(Object.keys(pkg.exports?.['.'] as object)[0]).toBe('types');
    expect(pkg.peerDependencies).toEqual({ '@plurnk/plurnk-execs': '^1.5.0' });
    expect(pkg.files).toEqual(expect.arrayContaining(['dist', 'docs']));
    expect(pkg.plurnk.kind).toBe('exec');
  });

  it.each([...LEAVES])('%s constructs for each tag it declares and refuses any other', async (leaf) => {
    const pkg = leafPackage(leaf);
    const Executor = await executorClass(pkg.name);
    for (const decl of pkg.plurnk.runtimes)
      expect(new Executor({ runtime: decl.name, glyph: decl.glyph ?? '' }).runtime).toBe(decl.name);
    namedError(() => new Executor({ runtime: 'not-declared', glyph: '' }), 'invalid-declaration');
  });
});

describe.each(TAG_NAMES)('runtime %s', (tag) => {
  const { leaf, decl } = TAGS.get(tag)!;

  it('has a valid declaration: one-line summary, a glyph, and an example (not a signature)', () => {
    expect(v.safeParse(RuntimeDeclSchema, decl).success).toBe(true);
    expect(decl.name).toMatch(/^[a-z][a-z0-9+.-]*$/);
    expect(decl.glyph).toMatch(/^\S+$/);
    expect(decl.invocation.example).toBeDefined();
    expect(decl.invocation.signature).toBeUndefined();
    if (decl.invocation.exclusive) expect(decl.invocation.target).toBeDefined();
  });

  it('has an example that satisfies its own invocation buckets', () => {
    const example = decl.invocation.example!;
    expect(checkInvocationBuckets(tag, decl.invocation, example.body ?? '', example.target ?? null)).toBeUndefined();
  });

  it('has docs/<tag>.md opening with the authoring title and a blank line', () => {
    const path = join(LEAVES_DIR, leaf, 'docs', `${tag}.md`);
    expect(existsSync(path)).toBe(true);
    const text = readFileSync(path, 'utf8');
    expect(text.startsWith(`# ${tag}\n\n`)).toBe(true);
    expect(text.slice(`# ${tag}\n\n`.length).trim().length).toBeGreaterThan(100);
  });

  // Where the interpreter is missing (deno and bun unless installed), the example cannot run:
  // the host must refuse it 501 with the install hint instead.
  it(`runs its example to a 200${unavailableNote(tag)}`, () =>
    liveOrUnavailable(tag, hostFor(leaf), async () => {
      expect(await (await executorFor(tag)).probe()).toMatchObject({ available: true });
      const example = decl.invocation.example!;
      const run = await runTag(tag, { body: example.body ?? '', target: example.target ?? null });
      expect(run.result.status).toBe(200);
      expect(Object.values(run.channels).every((channel) => channel.state === 'closed')).toBe(true);
    }));
});

import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { realizeTarget } from '../../../../src/thread-host/dispatch/realize-target.js';
import type { RuntimeInvocation } from '../../../../src/index.js';

const dir = mkdtempSync(join(tmpdir(), 'plurnk-realize-'));
writeFileSync(join(dir, 'file.txt'), '');
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const inv = (target: RuntimeInvocation['target']): RuntimeInvocation => ({
  body: { role: 'b' },
  ...(target ? { target } : {}),
});
const path = inv({ role: 't', kind: 'path' });
const pathDir = inv({ role: 't', kind: 'path', directory: 'cwd' });
const resource = inv({ role: 't', kind: 'resource' });
const literal = inv({ role: 't', kind: 'literal' });

describe('realizeTarget', () => {
  it.each([
    ['no target', path, null, null, { ok: true, target: null, cwd: null }],
    ['an empty target', path, '', '/w', { ok: true, target: null, cwd: '/w' }],
    ['a literal with a scheme', literal, 'sh:///1/2/3', null, { ok: true, target: 'sh:///1/2/3', cwd: null }],
    ['a local path', path, 'rel/x.txt', null, { ok: true, target: 'rel/x.txt', cwd: null }],
    ['a file:// URL', path, `file://${dir}/file.txt`, null, { ok: true, target: `${dir}/file.txt`, cwd: null }],
    [
      'a resource file:// URL',
      resource,
      `file://${dir}/file.txt`,
      null,
      { ok: true, target: `${dir}/file.txt`, cwd: null },
    ],
    ['a directory under directory: cwd', pathDir, dir, null, { ok: true, target: null, cwd: dir }],
    ['a relative directory resolved against cwd', pathDir, '.', dir, { ok: true, target: null, cwd: dir }],
    [
      'a file under directory: cwd',
      pathDir,
      join(dir, 'file.txt'),
      null,
      { ok: true, target: join(dir, 'file.txt'), cwd: null },
    ],
    ['a directory without the rule', path, dir, null, { ok: true, target: dir, cwd: null }],
  ])('realizes %s', (_name, invocation, target, cwd, expected) => {
    expect(realizeTarget('t', invocation, target, cwd)).toEqual(expected);
  });

  it.each([
    [path, 'https://example.test/x'],
    [resource, 'sqlite:///1/2/3#results'],
    [path, 'file://remote-host/x'],
  ])('refuses %j target %s', (invocation, target) => {
    expect(realizeTarget('t', invocation, target, null)).toMatchObject({ ok: false });
  });
});

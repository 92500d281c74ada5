import { describe, expect, test } from 'vitest';
import { discover } from '../../../src/index.js';
import { fixture } from '../../helpers/discovery-fixtures.js';
import { namedError } from '../../helpers/named-error.js';

const hook = (name: string) => fixture('hooks', name);

describe('a trusted package declares its runtimes with a plurnk.runtimesModule hook', () => {
  test.each<[string, string, NodeJS.ProcessEnv, string[]]>([
    ['a named runtimes export wins over the default export', 'hook-named', {}, ['named-a', 'named-b']],
    ['a default export is used when there is no named one', 'hook-default', {}, ['by-default']],
    ['an async hook is awaited', 'hook-async', {}, ['later']],
    [
      'the hook is called with the env discovery evaluates',
      'hook-env',
      { HOOK_ENV_TAGS: 'alpha,beta' },
      ['alpha', 'beta'],
    ],
    ['without an exports map the subpath is the file it names', 'hook-no-exports-map', {}, ['no-map']],
  ])('%s', async (_title, name, env, tags) => {
    const { registry } = await discover({ packageDirs: [hook(name)], env });
    expect([...registry.keys()]).toEqual(tags);
    expect(registry.get(tags[0] as string)?.packageName).toBe(name);
  });

  test('static runtimes win and the hook is never run', async () => {
    // The hook throws if called (and would be imported in a thread of its own, not this one).
    const { registry } = await discover({ packageDirs: [hook('static-wins')], env: {} });
    expect([...registry.keys()]).toEqual(['static']);
  });

  test('hook declarations go through the same policy as static ones', async () => {
    const { registry, disabled } = await discover({
      packageDirs: [hook('hook-named')],
      env: { 'PLURNK_EXECS_NAMED-A': '0' },
    });
    expect([...registry.keys()]).toEqual(['named-b']);
    expect(disabled).toEqual(['named-a']);
  });
});

describe('a broken hook fails discovery hard, naming the package', () => {
  test.each<[string, string, RegExp]>([
    ['a hook that throws', 'hook-throws', /the hook failed: Error: config service unreachable/],
    ['a hook that rejects', 'hook-rejects', /the hook failed: TypeError: bad deployment/],
    ['a hook that returns an object', 'hook-non-array', /the hook returned \{"name":"not-a-list"\}, not an array/],
    ['a runtimes export that is not a function', 'hook-not-function', /its "runtimes" export is \[\], not a function/],
    [
      'a module with neither export',
      'hook-no-export',
      /it has no "runtimes" export and its default export is nothing, not a function/,
    ],
    ['a module with a syntax error', 'hook-unloadable', /could not be loaded \(SyntaxError: /],
    [
      'a module that throws at import',
      'hook-throws-on-import',
      /could not be loaded \(Error: cannot load the deployment map\)/,
    ],
    [
      'a subpath the exports map does not export',
      'hook-not-exported',
      /the package's exports map does not export that subpath\. Fix: add "\.\/runtimes" to "exports"/,
    ],
    ['an exported file that does not exist', 'hook-missing-file', /runtimes\.js could not be loaded/],
    [
      // A hook thread can be terminated inside it, and Node then aborts the whole process (hook-thread.ts).
      'a CommonJS hook that require()s an ES module',
      'hook-requires-esm',
      /runtimes\.js could not be loaded \(Error: require\(\) of ES Module .*declarations\.mjs/,
    ],
    [
      'a hook that returns a function inside a declaration',
      'hook-function',
      /the hook returned a value that cannot cross the thread: field \[0\]\.invocation\.parse is a function\. Fix: return plain data/,
    ],
    [
      'a hook that returns a symbol inside a declaration',
      'hook-symbol',
      /the hook returned a value that cannot cross the thread: field \[1\]\.kind is a symbol \(secret-kind\)\. Fix: /,
    ],
  ])('%s', async (_title, name, message) => {
    const error = await namedError(discover({ packageDirs: [hook(name)], env: {} }), 'invalid-hook');
    expect(error.message).toContain(`Invalid runtimes hook in package "${name}" plurnk.runtimesModule "./runtimes"`);
    expect(error.message).toMatch(message);
  });

  test('a hook that never settles is cut off after hookTimeoutMs', async () => {
    const started = Date.now();
    const error = await namedError(
      discover({ packageDirs: [hook('hook-hangs')], env: {}, hookTimeoutMs: 150 }),
      'invalid-hook',
    );
    expect(error.message).toContain('package "hook-hangs"');
    expect(error.message).toContain('it did not settle within 150 ms');
    expect(Date.now() - started).toBeLessThan(5_000);
  });

  test('a hook that returns an invalid declaration fails the declaration validator, naming where it came from', async () => {
    const error = await namedError(
      discover({ packageDirs: [hook('hook-invalid-declaration')], env: {} }),
      'invalid-declaration',
    );
    expect(error.message).toContain(
      'package "hook-invalid-declaration", runtime "Bad Tag" (item 0 returned by plurnk.runtimesModule "./runtimes")',
    );
    expect(error.message).toContain('- name must match [a-z][a-z0-9+.-]*');
  });

  test('one broken hook fails the whole discovery, even beside good packages', async () => {
    await namedError(discover({ packageDirs: [hook('hook-named'), hook('hook-throws')], env: {} }), 'invalid-hook');
  });
});

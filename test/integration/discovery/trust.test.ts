import { describe, expect, test } from 'vitest';
import { discover } from '../../../src/index.js';
import { fixture } from '../../helpers/discovery-fixtures.js';
import { namedError } from '../../helpers/named-error.js';

// The untrusted tree holds: @acme/allowed, @acme/untrusted-hook (its hook throws if called),
// @acme/untrusted-static (an invalid declaration, a reserved attribution and a malformed
// .env.defaults), @plurnk/plurnk-execs-first, zz-untrusted. Hooks run in a thread of their own
// (host/hook-thread.ts), so an import would not show in this thread; had the hook run,
// discovery would have failed, which the last test shows it does with the gate off.
const untrusted = fixture('untrusted');

describe('the trust gate runs before any package code or file beyond package.json', () => {
  test('with the gate on, withheld packages run nothing, are read no further, and are listed sorted', async () => {
    const discovery = await discover({
      ancestors: false,
      cwd: untrusted,
      env: { PLURNK_PLUGINS_TRUSTED_ONLY: '@acme/allowed' },
    });
    expect([...discovery.registry.keys()]).toEqual(['allowed', 'first']);
    expect(discovery.skipped).toEqual(['@acme/untrusted-hook', '@acme/untrusted-static', 'zz-untrusted']);
    // Had the hook run, discovery would have failed.
    // The withheld package's malformed .env.defaults was never read.
    expect(discovery.envDefaults.map((floor) => floor.owner)).toEqual(['@plurnk/plurnk-execs']);
    expect([...discovery.packageAttributions]).toEqual([['@plurnk/plurnk-execs-first', ['@plurnk/first']]]);
  });

  test.each<[string, string, string[]]>([
    [
      'a gate of 1 trusts only @plurnk/*',
      '1',
      ['@acme/allowed', '@acme/untrusted-hook', '@acme/untrusted-static', 'zz-untrusted'],
    ],
    [
      'a list trusts its names too',
      ' zz-untrusted , @acme/allowed ',
      ['@acme/untrusted-hook', '@acme/untrusted-static'],
    ],
  ])('%s', async (_title, gate, skipped) => {
    const discovery = await discover({ ancestors: false, cwd: untrusted, env: { PLURNK_PLUGINS_TRUSTED_ONLY: gate } });
    expect(discovery.skipped).toEqual(skipped);
  });

  test.each([[{}], [{ PLURNK_PLUGINS_TRUSTED_ONLY: '' }], [{ PLURNK_PLUGINS_TRUSTED_ONLY: '0' }]])(
    'with the gate off (%j) everyone is trusted, so the broken package the gate withheld now fails discovery',
    async (env) => {
      const error = await namedError(discover({ ancestors: false, cwd: untrusted, env }), 'invalid-declaration');
      expect(error.message).toContain('package "@acme/untrusted-static"');
    },
  );

  test('trust is decided on the supplied env, not on package floors', async () => {
    // No package can trust itself: floors are assembled only after the gate.
    const discovery = await discover({
      packageDirs: [fixture('untrusted', 'zz-untrusted')],
      env: { PLURNK_PLUGINS_TRUSTED_ONLY: '1' },
    });
    expect(discovery.skipped).toEqual(['zz-untrusted']);
    expect(discovery.registry.size).toBe(0);
  });

  // The witness: with the gate off the same hook is imported and run, and fails discovery.
  test('the witness is live: with the gate off, the same hook is imported, runs and fails discovery', async () => {
    const error = await namedError(
      discover({ packageDirs: [fixture('untrusted', '@acme/untrusted-hook')], env: {} }),
      'invalid-hook',
    );
    expect(error.message).toContain('an untrusted hook ran');
  });
});

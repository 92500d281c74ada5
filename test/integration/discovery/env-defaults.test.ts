import { describe, expect, test } from 'vitest';
import { discover } from '../../../src/index.js';
import { fixture } from '../../helpers/discovery-fixtures.js';
import { namedError } from '../../helpers/named-error.js';

// @acme/loud ships ACME_LOUD_VOLUME="11" and ACME_LOUD_NOTE; @acme/quiet ships (CRLF, with a
// comment and a blank line) PLURNK_EXECS_QUIET=0 and ACME_QUIET_LEVEL = 3.
const scenario = fixture('env-defaults');
const framework = { key: 'PLURNK_EXECS_ERROR_DETAIL_LIMIT', value: '512', owner: '@plurnk/plurnk-execs' };

describe('package .env.defaults floors beneath the supplied env', () => {
  test('every floor is catalogued with its owner, in discovery order, after the framework’s own', async () => {
    const { envDefaults } = await discover({ ancestors: false, cwd: scenario, env: {} });
    expect(envDefaults).toEqual([
      framework,
      { key: 'ACME_LOUD_VOLUME', value: '11', owner: '@acme/loud' },
      { key: 'ACME_LOUD_NOTE', value: 'turned up # not a comment', owner: '@acme/loud' },
      { key: 'PLURNK_EXECS_QUIET', value: '0', owner: '@acme/quiet' },
      { key: 'ACME_QUIET_LEVEL', value: '3', owner: '@acme/quiet' },
    ]);
  });

  test.each<[string, NodeJS.ProcessEnv, string[], string[], NodeJS.ProcessEnv]>([
    [
      'a package may ship its tag default-disabled',
      {},
      ['loud'],
      ['quiet'],
      { PLURNK_EXECS_QUIET: '0', ACME_QUIET_LEVEL: '3' },
    ],
    [
      'an operator 1 outranks the package 0',
      { PLURNK_EXECS_QUIET: '1' },
      ['loud', 'quiet'],
      [],
      { PLURNK_EXECS_QUIET: '1' },
    ],
    [
      'an operator key in another case still outranks the floor',
      { plurnk_execs_quiet: 'true' },
      ['loud', 'quiet'],
      [],
      { plurnk_execs_quiet: 'true', PLURNK_EXECS_QUIET: undefined },
    ],
    [
      'an operator 1 never restores a tag PLURNK_EXECS_ONLY removed',
      { PLURNK_EXECS_QUIET: '1', PLURNK_EXECS_ONLY: 'loud' },
      ['loud'],
      ['quiet'],
      {},
    ],
    [
      'an operator empty value is set, so the floor stays out',
      { ACME_QUIET_LEVEL: '' },
      ['loud'],
      ['quiet'],
      { ACME_QUIET_LEVEL: '' },
    ],
    [
      'an operator value wins over the framework floor too',
      { PLURNK_EXECS_ERROR_DETAIL_LIMIT: '64' },
      ['loud'],
      ['quiet'],
      { PLURNK_EXECS_ERROR_DETAIL_LIMIT: '64' },
    ],
  ])('%s', async (_title, supplied, registered, disabled, expectedEnv) => {
    const before = { ...supplied };
    const discovery = await discover({ ancestors: false, cwd: scenario, env: supplied });
    expect([...discovery.registry.keys()]).toEqual(registered);
    expect(discovery.disabled).toEqual(disabled);
    for (const [key, value] of Object.entries(expectedEnv)) expect(discovery.env[key]).toBe(value);
    expect(supplied).toEqual(before);
  });

  test('a key shipped by two packages fails hard naming both, first claimant first', async () => {
    const error = await namedError(
      discover({ ancestors: false, cwd: fixture('env-conflict'), env: {} }),
      'invalid-env-defaults',
    );
    expect(error.message).toContain(
      'SHARED_KEY is shipped by both "@acme/one" (SHARED_KEY=one) and "@acme/two" (SHARED_KEY=two)',
    );
  });

  test('a key an operator already set still conflicts: ownership, not the value, is the error', async () => {
    await namedError(
      discover({ ancestors: false, cwd: fixture('env-conflict'), env: { SHARED_KEY: 'mine' } }),
      'invalid-env-defaults',
    );
  });

  test('a malformed file fails hard naming its owner and line', async () => {
    const error = await namedError(
      discover({ ancestors: false, cwd: fixture('env-malformed'), env: {} }),
      'invalid-env-defaults',
    );
    expect(error.message).toContain(
      'Invalid .env.defaults in package "@acme/sloppy", line 2: expected KEY=value; received "export BAD=2"',
    );
  });
});

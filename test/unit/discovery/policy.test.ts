import { describe, expect, test } from 'vitest';
import { Policy } from '../../../src/index.js';

describe('Policy.isKey', () => {
  test.each([
    ['PLURNK_EXECS_SH', true],
    ['PLURNK_EXECS_alias.tool', true],
    ['plurnk_execs_TOOL-V2', true],
    ['PLURNK_EXECS_C++', true],
    ['PLURNK_EXECS_ONLY', true],
    ['PLURNK_EXECS_only', true],
    ['PLURNK_EXECS_', false],
    ['PLURNK_EXECS_2FAST', false],
    ['PLURNK_EXECS_ALIAS_TOOL', false],
    ['PLURNK_EXECS_ERROR_DETAIL_LIMIT', false],
    ['PLURNK_PROVIDERS_SH', false],
    ['SH', false],
  ])('isKey(%j) is %s', (key, expected) => {
    expect(Policy.isKey(key)).toBe(expected);
  });

  test('keyFor gives the canonical key, which isKey admits', () => {
    expect(Policy.keyFor('c++')).toBe('PLURNK_EXECS_C++');
    expect(Policy.isKey(Policy.keyFor('python3'))).toBe(true);
  });
});

describe('Policy.isEnabled', () => {
  test.each<[string, string, NodeJS.ProcessEnv, boolean]>([
    ['nothing set keeps a tag', 'node', {}, true],
    ['0 removes the tag', 'node', { PLURNK_EXECS_NODE: '0' }, false],
    ['false removes the tag', 'node', { PLURNK_EXECS_NODE: 'false' }, false],
    ['FALSE removes the tag', 'node', { PLURNK_EXECS_NODE: 'FALSE' }, false],
    ['a padded 0 removes the tag', 'node', { PLURNK_EXECS_NODE: ' 0 ' }, false],
    ['1 keeps the tag', 'node', { PLURNK_EXECS_NODE: '1' }, true],
    ['an empty value keeps the tag', 'node', { PLURNK_EXECS_NODE: '' }, true],
    ['no keeps the tag (only 0 and false remove)', 'node', { PLURNK_EXECS_NODE: 'no' }, true],
    ['another tag’s key does not touch this one', 'node', { PLURNK_EXECS_SH: '0' }, true],
    ['a lowercase key removes the tag', 'sh', { PLURNK_EXECS_sh: '0' }, false],
    ['a mixed-case key removes the tag', 'node', { Plurnk_Execs_Node: 'false' }, false],
    ['an undefined value is not set', 'node', { PLURNK_EXECS_NODE: undefined }, true],
    ['ONLY lists the tag', 'sqlite', { PLURNK_EXECS_ONLY: 'search, sqlite' }, true],
    ['ONLY does not list the tag', 'node', { PLURNK_EXECS_ONLY: 'search, sqlite' }, false],
    ['an empty ONLY removes every tag', 'node', { PLURNK_EXECS_ONLY: '' }, false],
    ['a lowercase empty ONLY removes every tag', 'node', { PLURNK_EXECS_only: '' }, false],
    ['ONLY entries are trimmed and lowercased', 'search', { PLURNK_EXECS_ONLY: '  SEARCH ,x' }, true],
    ['the tag argument is matched case-insensitively', 'SEARCH', { PLURNK_EXECS_ONLY: 'search' }, true],
    ['ONLY and a per-tag key compose', 'node', { PLURNK_EXECS_ONLY: 'search,node', PLURNK_EXECS_NODE: '0' }, false],
    [
      'an allowlisted tag untouched by its key stays',
      'search',
      { PLURNK_EXECS_ONLY: 'search,node', PLURNK_EXECS_NODE: '0' },
      true,
    ],
    ['a 1 cannot undo ONLY', 'node', { PLURNK_EXECS_ONLY: 'sh', PLURNK_EXECS_NODE: '1' }, false],
    ['two spellings of a key: any 0 wins', 'sh', { PLURNK_EXECS_SH: '1', plurnk_execs_sh: '0' }, false],
    ['ONLY with only commas removes every tag', 'sh', { PLURNK_EXECS_ONLY: ' , ,' }, false],
  ])('%s', (_title, tag, env, expected) => {
    expect(Policy.isEnabled(tag, env)).toBe(expected);
  });
});

describe('Policy.enabledAcross', () => {
  test.each<[string, string, NodeJS.ProcessEnv[], boolean]>([
    ['no layers remove nothing', 'sh', [], true],
    ['every layer enables', 'search', [{ PLURNK_EXECS_ONLY: 'search,sqlite' }, { PLURNK_EXECS_ONLY: 'search' }], true],
    [
      'a downstream layer narrows',
      'sqlite',
      [{ PLURNK_EXECS_ONLY: 'search,sqlite' }, { PLURNK_EXECS_ONLY: 'search' }],
      false,
    ],
    [
      'a later layer cannot re-enable',
      'node',
      [{ PLURNK_EXECS_NODE: '0' }, { PLURNK_EXECS_ONLY: 'node,search' }, { PLURNK_EXECS_NODE: '1' }],
      false,
    ],
    ['an empty downstream allowlist stays subtractive', 'node', [{}, { PLURNK_EXECS_ONLY: '' }], false],
    ['an upstream removal holds whatever follows', 'sh', [{ PLURNK_EXECS_SH: 'false' }, {}], false],
  ])('%s', (_title, tag, layers, expected) => {
    expect(Policy.enabledAcross(tag, layers)).toBe(expected);
  });
});

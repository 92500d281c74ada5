import { describe, expect, test } from 'vitest';
import { isPlurnkExecsError, normalizeAttribution } from '../../../src/index.js';

describe('normalizeAttribution', () => {
  test.each<[string, unknown, string, readonly string[] | null]>([
    ['absence means none', undefined, '@acme/x', null],
    ['null means none', null, '@acme/x', null],
    ['an empty array means none', [], '@acme/x', null],
    ['a string is one tag', '@acme/widgets', '@acme/x', ['@acme/widgets']],
    ['an array keeps its order', ['b', 'a'], '@acme/x', ['b', 'a']],
    ['a first-party package may use @plurnk/ tags', ['@plurnk/core'], '@plurnk/plurnk-execs-common', ['@plurnk/core']],
  ])('%s', (_title, raw, packageName, expected) => {
    const tags = normalizeAttribution(raw, packageName);
    expect(tags).toEqual(expected);
    if (tags !== null) expect(Object.isFrozen(tags)).toBe(true);
  });

  test.each<[string, unknown, string, RegExp]>([
    ['an empty string', '', '@acme/x', /must be a non-empty string or an array of non-empty strings; received ""/],
    ['a number', 5, '@acme/x', /received 5/],
    ['an array holding a number', ['ok', 3], '@acme/x', /received \["ok",3\]/],
    ['an array holding an empty string', ['ok', ''], '@acme/x', /received \["ok",""\]/],
    ['an object', { tag: 'x' }, '@acme/x', /received \{"tag":"x"\}/],
    [
      'a reserved tag from a third party',
      ['fine', '@plurnk/stolen'],
      '@acme/x',
      /"@plurnk\/stolen" begins "@plurnk\/", which is reserved to @plurnk\/\* packages/,
    ],
  ])('fails hard on %s, naming the package and field', (_title, raw, packageName, message) => {
    let error: unknown;
    try {
      normalizeAttribution(raw, packageName);
    } catch (caught) {
      error = caught;
    }
    expect(isPlurnkExecsError(error, 'invalid-declaration')).toBe(true);
    expect((error as Error).message).toContain(`package "${packageName}"`);
    expect((error as Error).message).toContain('plurnk.attribution');
    expect((error as Error).message).toMatch(message);
  });
});

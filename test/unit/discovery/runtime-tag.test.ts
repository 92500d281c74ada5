import { describe, expect, test } from 'vitest';
import { isPlurnkExecsError, RuntimeTag } from '../../../src/index.js';

describe('RuntimeTag', () => {
  test.each([
    ['sh', true],
    ['python3', true],
    ['c++', true],
    ['alias.tool', true],
    ['tool-v2', true],
    ['a', true],
    ['only', false],
    ['Sh', false],
    ['2fast', false],
    ['', false],
    ['a_b', false],
    ['-x', false],
    ['+x', false],
    ['sh ', false],
    ['é', false],
    ['sh\n', false],
  ])('isValid(%j) is %s', (name, valid) => {
    expect(RuntimeTag.isValid(name)).toBe(valid);
  });

  test('isValid refuses values that are not strings', () => {
    for (const value of [undefined, null, 5, ['sh'], { name: 'sh' }]) expect(RuntimeTag.isValid(value)).toBe(false);
  });

  test('only is reserved by the PLURNK_EXECS_ONLY key, though it matches the syntax', () => {
    expect(RuntimeTag.PATTERN.test('only')).toBe(true);
    expect(RuntimeTag.isReserved('only')).toBe(true);
    expect(RuntimeTag.reservedBy('only')).toBe('PLURNK_EXECS_ONLY');
    expect(RuntimeTag.isReserved('sh')).toBe(false);
    expect(RuntimeTag.RESERVED).toEqual(['only']);
  });

  test('the published syntax text describes the same language as the pattern', () => {
    expect(new RegExp(`^${RuntimeTag.SYNTAX}$`).source).toBe(RuntimeTag.PATTERN.source);
  });

  test('is a class of statics, as 1.x exports it, and frozen', () => {
    expect(typeof RuntimeTag).toBe('function');
    expect(RuntimeTag.name).toBe('RuntimeTag');
    expect(Object.isFrozen(RuntimeTag)).toBe(true);
  });

  test('assert returns an admissible tag', () => {
    expect(RuntimeTag.assert('alias.tool', '@acme/x')).toBe('alias.tool');
  });

  test.each<[unknown, string]>([
    [undefined, 'must declare a string name matching [a-z][a-z0-9+.-]* (lowercase URI-scheme syntax)'],
    ['', 'must declare a string name matching [a-z][a-z0-9+.-]* (lowercase URI-scheme syntax)'],
    [7, 'must declare a string name matching [a-z][a-z0-9+.-]* (lowercase URI-scheme syntax)'],
    ['Alias', "name 'Alias' must match [a-z][a-z0-9+.-]* (lowercase URI-scheme syntax)"],
    ['alias_tool', "name 'alias_tool' must match [a-z][a-z0-9+.-]* (lowercase URI-scheme syntax)"],
    ['only', "name 'only' is reserved by PLURNK_EXECS_ONLY"],
  ])("assert(%j) throws 1.x's text, naming the owner", (value, detail) => {
    let error: unknown;
    try {
      RuntimeTag.assert(value, '@acme/x');
    } catch (caught) {
      error = caught;
    }
    expect(isPlurnkExecsError(error, 'invalid-declaration')).toBe(true);
    expect((error as Error).message).toBe(`exec runtime declaration invalid: @acme/x ${detail}`);
  });
});

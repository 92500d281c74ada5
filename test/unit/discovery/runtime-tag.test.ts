import { describe, expect, test } from 'vitest';
import { RuntimeTag } from '../../../src/index.js';

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
});

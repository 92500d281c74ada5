import { describe, expect, test } from 'vitest';
import { isPlurnkExecsError, parseEnvDefaults } from '../../../src/index.js';
import { applyEnvFloors } from '../../../src/discovery/env-floors.js';

const OWNER = '@acme/leaf';

describe('parseEnvDefaults', () => {
  test.each<[string, string, [string, string][]]>([
    ['one line', 'A=1', [['A', '1']]],
    ['comments and blank lines are skipped', '# note\n\nA=1\n  # indented note\n', [['A', '1']]],
    [
      'CRLF',
      'A=1\r\nB=2\r\n',
      [
        ['A', '1'],
        ['B', '2'],
      ],
    ],
    ['spaces around = and the value are trimmed', '  A = 1  ', [['A', '1']]],
    ['an empty value', 'A=', [['A', '']]],
    ['double quotes are removed', 'A="a b"', [['A', 'a b']]],
    ['single quotes are removed', "A='x'", [['A', 'x']]],
    ['unmatched quotes stay', 'A="x', [['A', '"x']]],
    ['= inside the value stays', 'A=b=c', [['A', 'b=c']]],
    ['# inside the value stays', 'A=b # c', [['A', 'b # c']]],
    ['a policy key for any tag', 'PLURNK_EXECS_C++=0', [['PLURNK_EXECS_C++', '0']]],
    ['nothing at all', '', []],
  ])('%s', (_title, text, expected) => {
    expect(parseEnvDefaults(text, OWNER)).toEqual(expected.map(([key, value]) => ({ key, value, owner: OWNER })));
  });

  test.each<[string, string, string]>([
    ['a line without =', 'A=1\nJUST_A_WORD', 'line 2: expected KEY=value; received "JUST_A_WORD"'],
    ['an export prefix', 'export A=1', 'line 1: expected KEY=value; received "export A=1"'],
    ['a key starting with a digit', '1A=x', 'line 1: expected KEY=value; received "1A=x"'],
    ['an empty key', '=x', 'line 1'],
    ['a key given twice', 'A=1\n# again\nA=2', 'A is set on line 1 and again on line 3'],
  ])('%s fails hard naming the owner', (_title, text, message) => {
    let error: unknown;
    try {
      parseEnvDefaults(text, OWNER);
    } catch (caught) {
      error = caught;
    }
    expect(isPlurnkExecsError(error, 'invalid-env-defaults')).toBe(true);
    expect((error as Error).message).toContain(`package "${OWNER}"`);
    expect((error as Error).message).toContain(message);
  });
});

describe('applyEnvFloors', () => {
  const floor = (key: string, value: string, owner = OWNER) => ({ key, value, owner });

  test.each<[string, NodeJS.ProcessEnv, ReturnType<typeof floor>[], NodeJS.ProcessEnv]>([
    ['fills an unset key', {}, [floor('A', '1')], { A: '1' }],
    ['never overrides a set key', { A: 'mine' }, [floor('A', '1')], { A: 'mine' }],
    ['an empty string is set', { A: '' }, [floor('A', '1')], { A: '' }],
    ['an undefined value is unset', { A: undefined }, [floor('A', '1')], { A: '1' }],
    ['ordinary keys are case-sensitive', { a: 'x' }, [floor('A', '1')], { a: 'x', A: '1' }],
    [
      'policy keys are matched in any case',
      { plurnk_execs_sh: '1' },
      [floor('PLURNK_EXECS_SH', '0')],
      { plurnk_execs_sh: '1' },
    ],
  ])('%s', (_title, supplied, floors, expected) => {
    const { env } = applyEnvFloors(supplied, floors);
    expect(env).toEqual(Object.fromEntries(Object.entries(expected).filter(([, value]) => value !== undefined)));
  });

  test.each<[string, ReturnType<typeof floor>[], string]>([
    [
      'the same key',
      [floor('A', '1', '@acme/one'), floor('A', '2', '@acme/two')],
      '"@acme/one" (A=1) and "@acme/two" (A=2)',
    ],
    [
      'one policy key in two cases',
      [floor('PLURNK_EXECS_SH', '0', '@acme/one'), floor('plurnk_execs_sh', '1', '@acme/two')],
      '"@acme/one" (PLURNK_EXECS_SH=0) and "@acme/two" (plurnk_execs_sh=1)',
    ],
  ])('two packages shipping %s fail hard naming both', (_title, floors, message) => {
    let error: unknown;
    try {
      applyEnvFloors({}, floors);
    } catch (caught) {
      error = caught;
    }
    expect(isPlurnkExecsError(error, 'invalid-env-defaults')).toBe(true);
    expect((error as Error).message).toContain(message);
  });
});

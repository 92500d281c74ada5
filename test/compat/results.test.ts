import { describe, expect, it } from 'vitest';
import { isPlurnkExecsError, Results, validateResult } from '../../src/index.js';
import { CONSUMER_CODES, HOST_PROBLEM_OWNER } from '../../src/host/index.js';

// What 1.x's Results and OperationResult schema allow, and the Problem type URIs it mints.
describe('results and Problems as 1.x has them', () => {
  const base = {
    type: 'https://problems.plurnk.xyz/executor/jq/jq-error',
    title: 'Jq error',
    status: 500,
    detail: 'x',
  };

  it.each([
    ['a field of the scheme’s own', { status: 200, rows: 3, note: 'kept' }],
    ['an extension left undefined (errorCode: err.code)', { status: 500, problem: { ...base, errorCode: undefined } }],
    ['a Problem type that is any absolute URI', { status: 500, problem: { ...base, type: 'urn:acme:oops' } }],
    ['scopeNormalizations', { status: 200, scopeNormalizations: [{ requested: [1, 1, 2], canonical: [1, 1, 2, 0] }] }],
  ])('accepts %s', (_name, value) => {
    expect(validateResult(value)).toEqual({ ok: true, result: value });
    expect(Results.assert(value)).toBe(value);
  });

  it.each([
    ['an error member', { status: 500, error: 'boom' }],
    ['a relative Problem type', { status: 500, problem: { ...base, type: '/problems/x' } }],
    ['a status and Problem that disagree', { status: 502, problem: base }],
  ])('Results.assert throws a named error for %s', (_name, value) => {
    let thrown: unknown;
    try {
      Results.assert(value);
    } catch (error) {
      thrown = error;
    }
    expect(isPlurnkExecsError(thrown, 'invalid-result')).toBe(true);
    expect((thrown as Error).message).toMatch(/^invalid result: /);
  });

  it('mints https://problems.plurnk.xyz/<owner with : as />/<code>, with the code humanised as title', () => {
    const result = Results.failure('executor:jq', 'jq-error', 500, 'bad', { exitCode: 5 }, { errorCode: undefined });
    expect(result).toEqual({
      status: 500,
      exitCode: 5,
      problem: {
        type: 'https://problems.plurnk.xyz/executor/jq/jq-error',
        title: 'Jq error',
        status: 500,
        detail: 'bad',
        errorCode: undefined,
      },
    });
  });

  it.each(['executor:', 'Executor:jq', 'executor::jq', '@acme/leaf', 'c++', 'executor:jq.x', ''])(
    'refuses the owner %j, naming it',
    (owner) => {
      expect(() => Results.failure(owner, 'x', 500, 'd')).toThrow(
        new RangeError(
          `Results.failure: problem owner must match ^[a-z][a-z0-9-]*(?::[a-z][a-z0-9-]*)*$ (such as "executor:jq"), received ${JSON.stringify(owner)}`,
        ),
      );
    },
  );

  it('owns every consumer code the host mints as scheme:exec', () => {
    expect(HOST_PROBLEM_OWNER).toBe('scheme:exec');
    expect(Object.keys(CONSUMER_CODES)).toContain('runtime-not-registered');
  });
});

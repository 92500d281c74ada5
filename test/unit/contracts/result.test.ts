import { describe, expect, it } from 'vitest';
import { Results, validateResult } from '../../../src/index.js';

const problem = (status: number, code = 'nonzero-exit') => ({
  type: `https://problems.plurnk.xyz/executor/subprocess/${code}`,
  title: 'Nonzero exit',
  status,
  detail: 'sh exited with code 3',
});

describe('validateResult', () => {
  it.each([
    ['a bare 200', { status: 200 }],
    ['a 204 with an exit code', { status: 204, exitCode: 0 }],
    ['a 100 (the lowest status)', { status: 100 }],
    ['a 500 with its problem', { status: 500, problem: problem(500), exitCode: 3 }],
    ['a 599 with its problem', { status: 599, problem: problem(599) }],
    [
      'a 499 with a problem carrying extensions',
      { status: 499, problem: { ...problem(499, 'cancelled'), recovery: 'retry', facts: { a: [1, null] } } },
    ],
    ['a problem with an instance', { status: 400, problem: { ...problem(400), instance: 'sh:///1/2/3' } }],
    ['what Results.failure builds', Results.failure('executor:subprocess', 'spawn-failed', 500, 'no such binary')],
    ['a field of the scheme’s own (1.x)', { status: 200, output: 'x', rows: [{ a: 1 }] }],
    [
      'a problem type that is any absolute URI (1.x)',
      { status: 500, problem: { ...problem(500), type: 'urn:acme:oops' } },
    ],
    [
      'an extension left undefined (1.x errorCode: err.code)',
      { status: 500, problem: { ...problem(500), errorCode: undefined } },
    ],
    [
      'scopeNormalizations (1.x)',
      { status: 200, scopeNormalizations: [{ requested: [1, 2, 3], canonical: [1, 2, 3, 4] }] },
    ],
  ])('accepts %s', (_name, value) => {
    const verdict = validateResult(value);
    expect(verdict).toEqual({ ok: true, result: value });
  });

  it.each([
    ['undefined', undefined, /object/i],
    ['a string', 'ok', /object/i],
    ['a missing status', {}, /status/],
    ['a status of 99', { status: 99 }, /status/],
    ['a status of 600', { status: 600, problem: problem(599) }, /status/],
    ['a fractional status', { status: 200.5 }, /status must be an integer/],
    ['a 500 without a problem', { status: 500 }, /400 or more needs a problem/],
    ['a 200 with a problem', { status: 200, problem: problem(500) }, /problem\.status|below 400 carries no problem/],
    ['a problem whose status disagrees', { status: 500, problem: problem(502) }, /problem\.status must equal status/],
    ['a problem status below 400', { status: 500, problem: problem(300) }, /problem\.status/],
    ['an error field', { status: 500, error: 'boom' }, /error: results carry failures as `problem`/],
    ['a field that is not JSON', { status: 200, output: new Date(0) }, /result field "output" must be plain JSON/],
    ['empty scopeNormalizations', { status: 200, scopeNormalizations: [] }, /scopeNormalizations/],
    [
      'scopeNormalizations that change the requested prefix',
      { status: 200, scopeNormalizations: [{ requested: [1, 2, 3], canonical: [1, 9, 3, 4] }] },
      /requested ones as their prefix/,
    ],
    [
      'a relative problem type',
      { status: 500, problem: { ...problem(500), type: '/problems/nonzero-exit' } },
      /absolute URI/,
    ],
    ['an empty title', { status: 500, problem: { ...problem(500), title: '' } }, /title/],
    ['a missing detail', { status: 500, problem: { type: problem(500).type, title: 'x', status: 500 } }, /detail/],
    [
      'a non-JSON extension',
      { status: 500, problem: { ...problem(500), when: new Date(0) } },
      /extension "when" must be plain JSON/,
    ],
    ['a fractional exit code', { status: 200, exitCode: 0.5 }, /exitCode/],
  ])('refuses %s and says what was wrong', (_name, value, reason) => {
    const verdict = validateResult(value);
    expect(verdict.ok).toBe(false);
    if (!verdict.ok) expect(verdict.issues.join('\n')).toMatch(reason);
  });
});

import { describe, expect, it } from 'vitest';
import { humaniseCode, problemCode, Results, validateResult } from '../../../src/index.js';

describe('Results.failure', () => {
  it('builds an RFC 9457 problem whose type ends in the code and whose status agrees', () => {
    const result = Results.failure(
      'executor:subprocess',
      'nonzero-exit',
      500,
      'sh exited with code 3',
      { exitCode: 3 },
      { recovery: 'Inspect stdout and stderr.' },
    );
    expect(result).toEqual({
      status: 500,
      exitCode: 3,
      problem: {
        type: 'https://problems.plurnk.xyz/executor/subprocess/nonzero-exit',
        title: 'Nonzero exit',
        status: 500,
        detail: 'sh exited with code 3',
        recovery: 'Inspect stdout and stderr.',
      },
    });
    expect(validateResult(result).ok).toBe(true);
    expect(problemCode(result.problem.type)).toBe('nonzero-exit');
  });

  it('turns each colon of the owner into a path segment, as 1.x', () => {
    expect(Results.failure('scheme:exec', 'runtime-disabled', 501, 'x').problem.type).toBe(
      'https://problems.plurnk.xyz/scheme/exec/runtime-disabled',
    );
    expect(Results.failure('sh', 'nonzero-exit', 500, 'x').problem.type).toBe(
      'https://problems.plurnk.xyz/sh/nonzero-exit',
    );
  });

  it('does not let an extension override the reserved members', () => {
    const { problem } = Results.failure('sh', 'cancelled', 499, 'stopped', {}, { status: 200, title: 'nope' } as never);
    expect(problem.status).toBe(499);
    expect(problem.title).toBe('Cancelled');
  });

  it.each([
    ['a status below 400', () => Results.failure('sh', 'x', 399, 'd'), /400–599/],
    ['a status above 599', () => Results.failure('sh', 'x', 600, 'd'), /400–599/],
    ['a code with capitals', () => Results.failure('sh', 'Bad', 500, 'd'), /lowercase-hyphenated/],
    ['a scoped package as owner', () => Results.failure('@acme/execs-cobol', 'x', 500, 'd'), /owner must match/],
    ['a tag with a dot as owner', () => Results.failure('alias.tool', 'x', 500, 'd'), /"alias\.tool"/],
    ['an empty owner segment', () => Results.failure('executor:', 'x', 500, 'd'), /owner must match/],
    ['a success status of 400', () => Results.success(400), /100–399/],
  ])('refuses %s', (_name, build, message) => {
    expect(build).toThrow(message);
  });

  it('humanises codes into titles', () => {
    expect(humaniseCode('runtime-not-registered')).toBe('Runtime not registered');
    expect(humaniseCode('cancelled')).toBe('Cancelled');
  });
});

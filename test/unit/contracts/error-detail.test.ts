import { describe, expect, it } from 'vitest';
import { ErrorDetail, PLURNK_EXECS_ERROR_DETAIL_LIMIT, validateResult } from '../../../src/index.js';

describe('ErrorDetail', () => {
  it.each([
    ['unset', undefined],
    ['empty', ''],
    ['blank', '   '],
    ['non-integer', '12.5'],
    ['not a number', 'lots'],
    ['negative', '-1'],
    ['exponent', '1e3'],
  ])('treats a %s limit as not configured and reports invalid-configuration', (_name, raw) => {
    const env = raw === undefined ? {} : { [PLURNK_EXECS_ERROR_DETAIL_LIMIT]: raw };
    expect(ErrorDetail.limit(env)).toBeUndefined();
    const resolved = ErrorDetail.resolve('sh', env);
    expect(resolved.ok).toBe(false);
    if (resolved.ok) return;
    expect(resolved.result.status).toBe(500);
    expect(resolved.result.problem?.type).toMatch(/\/invalid-configuration$/);
    expect(resolved.result.problem?.detail).toContain(PLURNK_EXECS_ERROR_DETAIL_LIMIT);
    expect(resolved.result.problem?.detail).toContain(raw === undefined ? 'unset' : JSON.stringify(raw));
    expect(validateResult(resolved.result).ok).toBe(true);
  });

  it.each([
    ['0', 0],
    ['512', 512],
    [' 64 ', 64],
  ])('reads %j as %i', (raw, limit) => {
    expect(ErrorDetail.resolve('sh', { [PLURNK_EXECS_ERROR_DETAIL_LIMIT]: raw })).toEqual({ ok: true, limit });
  });

  it('cuts text longer than the limit and appends an ellipsis', () => {
    expect(ErrorDetail.preview('abcdefgh', 3)).toBe('abc...');
    expect(ErrorDetail.preview('abc', 3)).toBe('abc');
    expect(ErrorDetail.preview('abc', 0)).toBe('...');
  });

  it('never splits a surrogate pair', () => {
    const cut = ErrorDetail.preview('a😀b', 2);
    expect(cut).toBe('a...');
    expect(() => encodeURIComponent(cut)).not.toThrow();
  });
});

import { afterEach, describe, expect, it, vi } from 'vitest';
import { ERROR_DETAIL_LIMIT, ErrorDetail, PLURNK_EXECS_ERROR_DETAIL_LIMIT, validateResult } from '../../src/index.js';

// Mirrors 1.x ErrorDetail.test: the static API a published leaf calls.
describe('ErrorDetail, the 1.x statics', () => {
  afterEach(() => vi.unstubAllEnvs());

  it('exports the variable name under both 1.x names', () => {
    expect(ERROR_DETAIL_LIMIT).toBe('PLURNK_EXECS_ERROR_DETAIL_LIMIT');
    expect(PLURNK_EXECS_ERROR_DETAIL_LIMIT).toBe(ERROR_DETAIL_LIMIT);
  });

  it('configuredLimit reads process.env: a number, or null when unset, empty, not a safe integer or negative', () => {
    vi.stubEnv(ERROR_DETAIL_LIMIT, '4');
    expect(ErrorDetail.configuredLimit()).toBe(4);
    expect(ErrorDetail.preview('abcdef', 4)).toBe('abcd...');
    for (const raw of [undefined, '', '-1', '1.5', 'lots', '9007199254740993']) {
      vi.stubEnv(ERROR_DETAIL_LIMIT, raw);
      expect(ErrorDetail.configuredLimit()).toBeNull();
    }
    expect(ErrorDetail.configuredLimit({ [ERROR_DETAIL_LIMIT]: '0' })).toBe(0);
  });

  it('invalidConfiguration(owner) is the one exact Problem 1.x gives', () => {
    const result = ErrorDetail.invalidConfiguration('executor:test');
    expect(result).toStrictEqual({
      status: 500,
      problem: {
        type: 'https://problems.plurnk.xyz/executor/test/invalid-configuration',
        title: 'Invalid configuration',
        status: 500,
        detail: 'PLURNK_EXECS_ERROR_DETAIL_LIMIT must be set to a non-negative integer.',
        configuration: 'PLURNK_EXECS_ERROR_DETAIL_LIMIT',
        stage: 'configuration',
        retryable: false,
      },
    });
    expect(validateResult(result).ok).toBe(true);
  });

  it('preview takes any value: an error by its message, anything else by String()', () => {
    expect(ErrorDetail.preview(new RangeError('out of range'), 6)).toBe('out of...');
    expect(ErrorDetail.preview({ message: 'from another realm' }, 4)).toBe('from...');
    expect(ErrorDetail.preview(12345, 3)).toBe('123...');
    expect(ErrorDetail.preview(null, 10)).toBe('null');
    expect(ErrorDetail.preview(Object.create(null), 100)).toBe('[object Object]');
  });

  it('keeps this package’s own forms working beside the statics', () => {
    expect(ErrorDetail.limit({ [ERROR_DETAIL_LIMIT]: '512' })).toBe(512);
    expect(ErrorDetail.resolve('executor:test', { [ERROR_DETAIL_LIMIT]: '512' })).toEqual({ ok: true, limit: 512 });
    const refused = ErrorDetail.resolve('executor:test', {});
    expect(refused.ok).toBe(false);
    if (!refused.ok) {
      expect(refused.result.problem).toMatchObject({
        configuration: ERROR_DETAIL_LIMIT,
        stage: 'configuration',
        retryable: false,
      });
    }
  });
});

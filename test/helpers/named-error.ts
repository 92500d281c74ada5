import { isPlurnkExecsError, type PlurnkExecsError, type PlurnkExecsErrorCode } from '../../src/index.js';

/**
 * Expects `work` to fail with the package's named error of `code` and returns that error, so
 * the test goes on to check its message. A function is called and must throw; a promise must
 * reject. Anything else (success, another error, another code) fails the test saying what
 * happened instead.
 */
export function namedError(work: Promise<unknown>, code: PlurnkExecsErrorCode): Promise<PlurnkExecsError>;
export function namedError(work: () => unknown, code: PlurnkExecsErrorCode): PlurnkExecsError;
export function namedError(
  work: Promise<unknown> | (() => unknown),
  code: PlurnkExecsErrorCode,
): PlurnkExecsError | Promise<PlurnkExecsError> {
  if (typeof work !== 'function') {
    return work.then(
      (value) => judge(code, { value }),
      (error: unknown) => judge(code, { error }),
    );
  }
  try {
    return judge(code, { value: work() });
  } catch (error) {
    return judge(code, { error });
  }
}

function judge(code: PlurnkExecsErrorCode, outcome: { value: unknown } | { error: unknown }): PlurnkExecsError {
  if ('error' in outcome && isPlurnkExecsError(outcome.error, code)) return outcome.error;
  const instead =
    'error' in outcome ? `it failed with ${String(outcome.error)}` : `it succeeded with ${String(outcome.value)}`;
  throw new Error(
    `expected a PlurnkExecsError ${code}; ${instead}`,
    'error' in outcome ? { cause: outcome.error } : {},
  );
}

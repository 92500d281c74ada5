import { PlurnkExecsError } from './errors.js';
import { humaniseCode, problemType, type ProblemDetails } from './problem.js';
import { validateResult, type ExecResult } from './result.js';
import type { JsonValue } from './json.js';

/** Result fields beside `status` and `problem` (a subprocess `exitCode`, a scheme's own fields). */
export type ResultFields = Omit<ExecResult, 'status' | 'problem'>;

/** Problem extensions: plain JSON members; one left `undefined` (`errorCode: err.code`) is dropped by JSON. */
export type ProblemExtensions = Record<string, JsonValue | undefined>;

/** Helpers that build results which pass `validateResult` by construction. */
export const Results = {
  /** `{ status }` (default 200) plus fields such as `exitCode`. */
  success(status = 200, fields: ResultFields = {}): ExecResult {
    if (!Number.isInteger(status) || status < 100 || status >= 400) {
      throw new RangeError(`Results.success: status must be an integer 100–399, received ${status}`);
    }
    return { status, ...fields };
  },

  /**
   * A failure result carrying one RFC 9457 Problem, as 1.x builds it: `type` is
   * `https://problems.plurnk.xyz/<owner, ':' ⇒ '/'>/<code>`, `title` the humanised code,
   * `status` the result's status. `owner` names who reports it (`executor:jq`, `scheme:exec`);
   * `extensions` are members of the Problem (`recovery`, structured diagnostic facts).
   *
   * @throws RangeError on an owner or code outside its grammar, or a status outside 400–599.
   */
  failure(
    owner: string,
    code: string,
    status: number,
    detail: string,
    fields: ResultFields = {},
    extensions: ProblemExtensions = {},
  ): ExecResult & { problem: ProblemDetails } {
    if (!Number.isInteger(status) || status < 400 || status > 599) {
      throw new RangeError(`Results.failure: status must be an integer 400–599, received ${status}`);
    }
    let type: string;
    try {
      type = problemType(owner, code);
    } catch (error) {
      throw new RangeError(`Results.failure: ${(error as Error).message}`, { cause: error });
    }
    const problem: ProblemDetails = { ...extensions, type, title: humaniseCode(code), status, detail };
    return { ...fields, status, problem };
  },

  /**
   * Returns `result` when it is a valid result (1.x `Results.assert`).
   *
   * @throws PlurnkExecsError (`invalid-result`) naming every violation.
   */
  assert<T>(result: T): T & ExecResult {
    const verdict = validateResult(result);
    if (verdict.ok) return result as T & ExecResult;
    throw new PlurnkExecsError('invalid-result', `invalid result: ${verdict.issues.join('; ')}`);
  },
} as const;

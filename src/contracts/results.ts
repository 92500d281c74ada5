import { humaniseCode, PROBLEM_CODE, problemType, type ProblemDetails } from './problem.js';
import type { ExecResult } from './result.js';
import type { JsonValue } from './json.js';

/** Result fields beside `status` and `problem` (today: a subprocess `exitCode`). */
export type ResultFields = Omit<ExecResult, 'status' | 'problem'>;

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
   * A failure result carrying one RFC 9457 Problem: `type` is an absolute URI ending in
   * `/<code>`, `title` the humanised code, `status` the result's status. `extensions` are
   * JSON members of the Problem (`recovery`, structured diagnostic facts).
   */
  failure(
    owner: string,
    code: string,
    status: number,
    detail: string,
    fields: ResultFields = {},
    extensions: Record<string, JsonValue> = {},
  ): ExecResult & { problem: ProblemDetails } {
    if (!PROBLEM_CODE.test(code))
      throw new RangeError(`Results.failure: code must be lowercase-hyphenated, received ${JSON.stringify(code)}`);
    if (!Number.isInteger(status) || status < 400 || status > 599) {
      throw new RangeError(`Results.failure: status must be an integer 400–599, received ${status}`);
    }
    const problem: ProblemDetails = {
      ...extensions,
      type: problemType(owner, code),
      title: humaniseCode(code),
      status,
      detail,
    };
    return { status, ...fields, problem };
  },
} as const;

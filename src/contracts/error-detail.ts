import { Results } from './results.js';
import type { ExecResult } from './result.js';
import type { ProblemDetails } from './problem.js';

/** Name of the required variable that bounds third-party text entering a Problem. */
export const PLURNK_EXECS_ERROR_DETAIL_LIMIT = 'PLURNK_EXECS_ERROR_DETAIL_LIMIT';
/** The same name under its 1.x export. */
export const ERROR_DETAIL_LIMIT = PLURNK_EXECS_ERROR_DETAIL_LIMIT;

/** The configured limit, or the failure that reports its absence. */
export type ErrorDetailLimit = { ok: true; limit: number } | { ok: false; result: ExecResult };

/**
 * Bounds third-party diagnostic text (a leaf error message, an interpreter's complaint) before
 * it enters a Problem `detail`. The limit is required configuration: unset, empty,
 * non-integer or negative means no limit is configured, which is itself a failure.
 * `configuredLimit`, `invalidConfiguration` and `preview(unknown, limit)` are the 1.x statics;
 * `limit` and `resolve` are this package's forms of the same reading.
 */
export const ErrorDetail = {
  /** Reads the limit from `env`; `undefined` when it is not a non-negative decimal integer. */
  limit(env: NodeJS.ProcessEnv = process.env): number | undefined {
    const raw = env[PLURNK_EXECS_ERROR_DETAIL_LIMIT]?.trim();
    if (!raw || !/^\d+$/.test(raw)) return undefined;
    const limit = Number(raw);
    return Number.isSafeInteger(limit) ? limit : undefined;
  },

  /** 1.x: the limit, or `null` when it is unset, empty, not a safe integer, or negative. */
  configuredLimit(env: NodeJS.ProcessEnv = process.env): number | null {
    return ErrorDetail.limit(env) ?? null;
  },

  /** 1.x: the one exact 500 `invalid-configuration` failure for a missing or invalid limit. */
  invalidConfiguration(owner: string): ExecResult & { problem: ProblemDetails } {
    return Results.failure(
      owner,
      'invalid-configuration',
      500,
      `${PLURNK_EXECS_ERROR_DETAIL_LIMIT} must be set to a non-negative integer.`,
      {},
      { configuration: PLURNK_EXECS_ERROR_DETAIL_LIMIT, stage: 'configuration', retryable: false },
    );
  },

  /** The limit, or a 500 `invalid-configuration` failure owned by `owner` that echoes what was set. */
  resolve(owner: string, env: NodeJS.ProcessEnv = process.env): ErrorDetailLimit {
    const limit = ErrorDetail.limit(env);
    if (limit !== undefined) return { ok: true, limit };
    const received = env[PLURNK_EXECS_ERROR_DETAIL_LIMIT];
    return {
      ok: false,
      result: Results.failure(
        owner,
        'invalid-configuration',
        500,
        `${PLURNK_EXECS_ERROR_DETAIL_LIMIT} must be set to a non-negative integer; received ${received === undefined ? 'nothing (unset)' : JSON.stringify(received)}.`,
        {},
        {
          configuration: PLURNK_EXECS_ERROR_DETAIL_LIMIT,
          stage: 'configuration',
          recovery: `Set ${PLURNK_EXECS_ERROR_DETAIL_LIMIT} (the shipped .env.defaults uses 512).`,
          retryable: false,
        },
      ),
    };
  },

  /**
   * The text of `value` (an error's `message`, else `String(value)`) cut to `limit`
   * characters plus `...` when longer; unchanged otherwise.
   */
  preview(value: unknown, limit: number): string {
    const text = messageOf(value);
    if (text.length <= limit) return text;
    // Do not split a surrogate pair: the cut text must stay valid UTF-16.
    let end = limit;
    const code = text.charCodeAt(end - 1);
    if (end > 0 && code >= 0xd800 && code <= 0xdbff) end -= 1;
    return `${text.slice(0, end)}...`;
  },
} as const;

/** An error's `message` (of any realm), else `String(value)`. */
function messageOf(value: unknown): string {
  if (typeof value === 'object' && value !== null && 'message' in value && typeof value.message === 'string') {
    return value.message;
  }
  try {
    return String(value);
  } catch {
    // A null-prototype object has no toString.
    return Object.prototype.toString.call(value);
  }
}

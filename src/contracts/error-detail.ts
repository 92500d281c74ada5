import { Results } from './results.js';
import type { ExecResult } from './result.js';

/** Name of the required variable that bounds third-party text entering a Problem. */
export const PLURNK_EXECS_ERROR_DETAIL_LIMIT = 'PLURNK_EXECS_ERROR_DETAIL_LIMIT';

/** The configured limit, or the failure that reports its absence. */
export type ErrorDetailLimit = { ok: true; limit: number } | { ok: false; result: ExecResult };

/**
 * Bounds third-party diagnostic text (a leaf error message, an interpreter's complaint) before
 * it enters a Problem `detail`. The limit is required configuration: unset, empty,
 * non-integer or negative means no limit is configured, which is itself a failure.
 */
export const ErrorDetail = {
  /** Reads the limit from `env`; `undefined` when it is not a non-negative integer. */
  limit(env: NodeJS.ProcessEnv = process.env): number | undefined {
    const raw = env[PLURNK_EXECS_ERROR_DETAIL_LIMIT]?.trim();
    if (!raw || !/^\d+$/.test(raw)) return undefined;
    const limit = Number(raw);
    return Number.isSafeInteger(limit) ? limit : undefined;
  },

  /** The limit, or a 500 `invalid-configuration` failure owned by `owner` that names the variable. */
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
        `${PLURNK_EXECS_ERROR_DETAIL_LIMIT} must be a non-negative integer; received ${received === undefined ? 'nothing (unset)' : JSON.stringify(received)}`,
        {},
        { recovery: `Set ${PLURNK_EXECS_ERROR_DETAIL_LIMIT} (the shipped .env.defaults uses 512).` },
      ),
    };
  },

  /** `text` cut to `limit` characters plus `...` when longer; unchanged otherwise. */
  preview(text: string, limit: number): string {
    if (text.length <= limit) return text;
    // Do not split a surrogate pair: the cut text must stay valid UTF-16.
    let end = limit;
    const code = text.charCodeAt(end - 1);
    if (end > 0 && code >= 0xd800 && code <= 0xdbff) end -= 1;
    return `${text.slice(0, end)}...`;
  },
} as const;

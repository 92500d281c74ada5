import type { JsonValue } from '../contracts/json.js';
import type { ProblemDetails } from '../contracts/problem.js';
import type { ExecResult } from '../contracts/result.js';
import { Results } from '../contracts/results.js';

/** Owner of every Problem the host mints: the consumer's EXEC scheme, as plurnk-core names it (1.x `scheme:exec`). */
export const HOST_PROBLEM_OWNER = 'scheme:exec';

/** Status of each consumer Problem code the host mints. */
export const CONSUMER_CODES = {
  'runtime-not-registered': 501,
  'runtime-disabled': 501,
  'runtime-unavailable': 501,
  'body-required': 400,
  'target-not-supported': 400,
  'target-required': 400,
  'input-required': 400,
  'input-conflict': 400,
  'cwd-not-found': 400,
  'executor-threw': 500,
  'executor-invalid-result': 500,
  'execution-timeout': 504,
  'execution-cancelled': 499,
  'executor-unresponsive': 500,
  'memory-limit-exceeded': 500,
  'output-limit-exceeded': 500,
  'runtime-degraded': 503,
  'host-overloaded': 503,
  'engine-crashed': 500,
  'engine-unresponsive': 500,
  'engine-unavailable': 503,
} as const;

/** A Problem code the host mints. */
export type ConsumerCode = keyof typeof CONSUMER_CODES;

// The results the host minted, by identity: a leaf can put any type URI in its own Problem,
// so who minted a result is never read from its wording (outcome-class.ts relies on this).
const minted = new WeakMap<ExecResult, ConsumerCode>();

/** A failure result the host minted, owned by `scheme:exec`, with the code's fixed status. */
export function hostFailure(
  code: ConsumerCode,
  detail: string,
  extensions: Record<string, JsonValue> = {},
): ExecResult & { problem: ProblemDetails } {
  const result = Results.failure(HOST_PROBLEM_OWNER, code, CONSUMER_CODES[code], detail, {}, extensions);
  minted.set(result, code);
  return result;
}

/** The code of a result `hostFailure` minted (this very object), else undefined: the leaf's own result. */
export function mintedCode(result: ExecResult): ConsumerCode | undefined {
  return minted.get(result);
}

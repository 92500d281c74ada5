import type { ExecResult } from '../contracts/result.js';
import type { ForcedEnd } from './fault-kinds.js';
import { mintedCode, type ConsumerCode } from './host-problems.js';

/**
 * How an EXEC ended, in one word (`ExecOutcome.outcome`): a service branches on this, never
 * on Problem type URIs, which differ between a leaf's own (`…/sh/cancelled`) and the host's
 * (`…/exec/execution-cancelled`). A closed set:
 * - `ok`: the leaf ran and reported success (status below 400).
 * - `failed`: the leaf ran and reported a failure of its own (a non-zero exit, a query error…).
 * - `cancelled`: the caller aborted the run, or the host closed (499, the leaf's or the host's).
 * - `timeout`: the run's `timeoutMs` passed (504 `execution-timeout`).
 * - `refused`: the host refused the EXEC before it ran: an unknown, disabled, unavailable or
 *   degraded tag, a body or target the invocation does not admit, a `cwd` that is no directory,
 *   or a host too loaded to start its thread in time (`host-overloaded`: retry later).
 * - `leaf-fault`: the leaf broke its contract: it threw, answered an invalid result, stopped
 *   answering, broke a memory or output limit, or killed its thread.
 * - `host-fault`: the host itself failed to judge the run (a bug to report, not the leaf's).
 */
export const OUTCOME_CLASSES = ['ok', 'failed', 'cancelled', 'timeout', 'refused', 'leaf-fault', 'host-fault'] as const;

/** One of {@link OUTCOME_CLASSES}. */
export type OutcomeClass = (typeof OUTCOME_CLASSES)[number];

const BY_CODE = {
  'runtime-not-registered': 'refused',
  'runtime-disabled': 'refused',
  'runtime-unavailable': 'refused',
  'runtime-degraded': 'refused',
  // The run waited too long for a thread to start: nothing of the leaf ran, and a retry may succeed.
  'host-overloaded': 'refused',
  'body-required': 'refused',
  'target-not-supported': 'refused',
  'target-required': 'refused',
  'input-required': 'refused',
  'input-conflict': 'refused',
  'cwd-not-found': 'refused',
  'execution-cancelled': 'cancelled',
  'execution-timeout': 'timeout',
  'executor-threw': 'leaf-fault',
  'executor-invalid-result': 'leaf-fault',
  'executor-unresponsive': 'leaf-fault',
  'memory-limit-exceeded': 'leaf-fault',
  'output-limit-exceeded': 'leaf-fault',
  // The process tier: an engine that died under a run was killed by what ran in it; none to run on is a refusal.
  'engine-crashed': 'leaf-fault',
  'engine-unresponsive': 'leaf-fault',
  'engine-unavailable': 'refused',
} as const satisfies Record<ConsumerCode, OutcomeClass>;

/**
 * Classifies a result: the leaf's own by its status, one the host minted by its code, except
 * that a run the host failed to judge (`forcedEnd.reason` `host-error`) is the host's fault.
 */
export function classifyOutcome(result: ExecResult, forcedEnd: ForcedEnd | null | undefined): OutcomeClass {
  if (forcedEnd?.reason === 'host-error') return 'host-fault';
  const code = mintedCode(result);
  if (code !== undefined) return BY_CODE[code];
  if (result.status < 400) return 'ok';
  return result.status === 499 ? 'cancelled' : 'failed';
}

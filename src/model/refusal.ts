import { ErrorDetail } from '../contracts/error-detail.js';
import { PlurnkExecsError } from '../contracts/errors.js';
import type { ExecResult } from '../contracts/result.js';
import type { Degradation } from './crash-breaker.js';
import { hostFailure } from './host-problems.js';
import type { ExecOutcome } from './host-types.js';
import { classifyOutcome } from './outcome-class.js';

// How the host answers what it will not do, the same in both tiers: an EXEC that no run of a
// leaf answered (refused at admission, held by the crash-loop breaker, or failed before its run
// started), and any call once the host is closed.

/** `host-closed`: the caller's mistake, so `exec` and `effect` reject with it. */
export function hostClosedError(): PlurnkExecsError {
  return new PlurnkExecsError('host-closed', 'the host is closed: create a new host to run more EXECs');
}

/** An outcome with no stream: no effect was used, nothing was written, no violation recorded. */
export function refusedOutcome(result: ExecResult): ExecOutcome {
  return {
    outcome: classifyOutcome(result, null),
    result,
    effect: null,
    address: null,
    channels: {},
    notices: [],
    violations: [],
  };
}

/**
 * 503 `runtime-degraded`: the crash-loop breaker holds `tag` (docs/faults.md). `crashed` says
 * what the tier counted, with the count in it ("its worker threads crashed 3 time(s) within the
 * breaker window"); the last crash and the wait are extensions too.
 */
export function degradedFailure(tag: string, degraded: Degradation, crashed: string, detailLimit: number): ExecResult {
  const detail = `runtime ${tag} is degraded: ${crashed}; it may run again in ${degraded.retryInMs}ms. Last crash: ${degraded.reason}`;
  return hostFailure('runtime-degraded', ErrorDetail.preview(detail, detailLimit), {
    lastCrash: ErrorDetail.preview(degraded.reason, detailLimit),
    retryAfterMs: degraded.retryInMs,
  });
}

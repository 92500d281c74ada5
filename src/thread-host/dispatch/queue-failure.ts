import { ErrorDetail } from '../../contracts/error-detail.js';
import type { ExecResult } from '../../contracts/result.js';
import { hostFailure } from '../../model/host-problems.js';
import { QueueAbortedError, QueueTimeoutError } from '../threads/start-gate.js';

/**
 * The result of a run that never got a thread, from why its wait in the admission queue ended:
 * 503 `host-overloaded` past `admission.queueTimeoutMs` (nothing of the leaf ran, so no leaf is
 * charged), 499 `execution-cancelled` when its signal or the host's `closing` aborted it.
 * Undefined for any other error: that one is no queue's.
 */
export function queueFailure(
  error: unknown,
  tag: string,
  closing: AbortSignal,
  queueTimeoutMs: number,
  detailLimit: number,
): ExecResult | undefined {
  if (error instanceof QueueTimeoutError) {
    const detail = `the host is overloaded: the ${tag} run waited for a thread to start, but ${error.message}; nothing of the leaf ran, retry later`;
    return hostFailure('host-overloaded', ErrorDetail.preview(detail, detailLimit), { queueTimeoutMs });
  }
  if (!(error instanceof QueueAbortedError)) return undefined;
  if (closing.aborted)
    return hostFailure('execution-cancelled', 'the host closed while the run waited for a thread; none was started');
  return hostFailure('execution-cancelled', 'the run was aborted while it waited for a thread; none was started');
}

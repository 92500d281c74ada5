import { ErrorDetail } from '../../contracts/error-detail.js';
import type { Limits } from '../../contracts/limits.js';
import type { TaskReply } from '../../contracts/protocol.js';
import { validateResult, type ExecResult } from '../../contracts/result.js';
import type { ForcedEnd, RunEndReason } from '../../model/fault-kinds.js';
import { hostFailure } from '../../model/host-problems.js';
import { describeFailedReply, isOutOfMemory } from '../threads/bounded-call.js';
import { MalformedReplyError } from '../threads/worker-handle.js';
import type { WatchEnd } from './cancel-watch.js';
import { leafFrames } from './leaf-stack.js';
import type { RunFault } from './run-guard.js';

// Judging a run once it settled (execute-run.ts runs it): which one result it gets, and why the
// host ended it, from how its task ended, the first limit it broke and its deadline. Facts in,
// a result out: nothing here touches the thread or its ports.

/**
 * How a run's task ended: its thread's reply, the thread's death, or the host ending it. A
 * limit that ends a run at once (`guard.fatal`) settles it as forced with end 'fault', like a
 * limit whose interrupt ran past grace: either way the guard latched the fault, which decides the result.
 */
export type Settled =
  { kind: 'reply'; reply: TaskReply } | { kind: 'died'; error: unknown } | { kind: 'forced'; end: WatchEnd };

/** What judging reads of the run besides how it settled (a run's context has all of it). */
export interface RunFacts {
  readonly handle: { readonly deathReason: string | undefined };
  readonly limits: Pick<Limits, 'graceMs' | 'heapMb' | 'problemBytes'>;
  /** Bound on leaf text entering a Problem detail. */
  readonly detailLimit: number;
  readonly timeoutMs: number | undefined;
  readonly signal: AbortSignal | undefined;
  readonly closing: AbortSignal;
}

/**
 * The run's one result: the first limit it broke decides it, then its deadline (when it replied
 * within the grace after it), then how its task ended; an aborted run that the leaf still
 * reported below 400 settles 499.
 */
export function judgeRun(settled: Settled, fault: RunFault | undefined, timedOut: boolean, run: RunFacts): ExecResult {
  return cancelledDespite(
    fault
      ? hostFailure(fault.code, ErrorDetail.preview(fault.detail, run.detailLimit))
      : timedOut && settled.kind === 'reply'
        ? timeoutFailure(run, true)
        : judge(settled, run),
    run,
  );
}

/** The result of a run that broke no limit (a broken limit's fault decides the result before this is asked). */
function judge(settled: Settled, context: RunFacts): ExecResult {
  const bound = (text: string) => ErrorDetail.preview(text, context.detailLimit);
  switch (settled.kind) {
    case 'forced':
      if (settled.end === 'timeout') return timeoutFailure(context, false);
      if (settled.end === 'closed')
        return hostFailure(
          'execution-cancelled',
          'the host closed while the run was in flight; its worker thread was terminated',
        );
      return hostFailure(
        'execution-cancelled',
        `the run did not settle within ${context.limits.graceMs}ms of its abort; its worker thread was terminated`,
      );
    case 'died':
      if (settled.error instanceof MalformedReplyError)
        return hostFailure('executor-invalid-result', bound(settled.error.message));
      if (isOutOfMemory(settled.error)) {
        return hostFailure(
          'memory-limit-exceeded',
          `the worker thread ran out of JS heap during run() and died (limits.heapMb ${context.limits.heapMb})`,
        );
      }
      return hostFailure(
        'executor-threw',
        bound(`the worker thread died during run(): ${context.handle.deathReason ?? String(settled.error)}`),
      );
    case 'reply':
      return judgeReply(settled.reply, bound, context.limits.problemBytes);
  }
}

function judgeReply(reply: TaskReply, bound: (text: string) => string, problemBytes: number): ExecResult {
  if (!reply.ok) {
    const text = bound(describeFailedReply(reply, 'run()', 'resolved'));
    if (reply.stage === 'reply') return hostFailure('executor-invalid-result', text);
    const stack = leafFrames(reply.error.stack);
    return hostFailure('executor-threw', text, { error: reply.error.name, ...(stack.length > 0 ? { stack } : {}) });
  }
  const validation = validateResult(reply.value);
  if (validation.ok) {
    const problem = validation.result.problem;
    // Validated plain JSON: serializing it cannot throw. Detail and extensions both count.
    const size = problem === undefined ? 0 : Buffer.byteLength(JSON.stringify(problem), 'utf8');
    if (size <= problemBytes) return validation.result;
    return hostFailure(
      'executor-invalid-result',
      `run() resolved a Problem of ${size} bytes (detail and extensions), over limits.problemBytes ${problemBytes}`,
    );
  }
  return hostFailure(
    'executor-invalid-result',
    bound(`run() resolved an invalid result: ${validation.issues.join('; ')}`),
  );
}

/**
 * A run the service aborted (its signal, or the host closing) that the leaf still reported
 * below 400 is 499 `execution-cancelled`, as 1.x's consumer stamps it: the service stopped
 * caring about its output, so it must not read as a success.
 */
function cancelledDespite(result: ExecResult, context: RunFacts): ExecResult {
  if (result.status >= 400) return result;
  if (!context.signal?.aborted && !context.closing.aborted) return result;
  return hostFailure(
    'execution-cancelled',
    `the run was aborted, but the leaf still reported status ${result.status}; an aborted run settles 499`,
    { leafStatus: result.status },
  );
}

function timeoutFailure(context: RunFacts, settledInGrace: boolean): ExecResult {
  const after = settledInGrace
    ? 'it settled within the grace period'
    : `it did not settle within ${context.limits.graceMs}ms; its worker thread was terminated`;
  return hostFailure(
    'execution-timeout',
    `the run exceeded its ${context.timeoutMs}ms deadline and was aborted; ${after}`,
  );
}

/** Why the host ended the run, when it did: the limit it broke first, else how the run's task ended. */
export function forcedEnd(
  settled: Settled,
  fault: RunFault | undefined,
  timedOut: boolean,
  escaped: boolean,
): ForcedEnd | null {
  const terminated = settled.kind === 'forced';
  if (fault) return { reason: fault.reason, terminated };
  switch (settled.kind) {
    case 'forced':
      return { reason: WATCH_END_REASONS[settled.end], terminated };
    case 'died':
      return { reason: isOutOfMemory(settled.error) ? 'heap-limit' : 'thread-died', terminated };
    case 'reply':
      return timedOut ? { reason: 'timeout', terminated } : escaped ? { reason: 'escaped-error', terminated } : null;
  }
}

const WATCH_END_REASONS = {
  timeout: 'timeout',
  cancelled: 'cancelled',
  closed: 'host-closed',
  fault: 'output-limit',
} as const satisfies Record<WatchEnd, RunEndReason>;

/** An error escaped the leaf during the run (an uncaught exception or unhandled rejection): its thread is retired, and it counts as a crash. */
export function isEscape(reply: TaskReply): boolean {
  return !reply.ok && (reply.stage === 'uncaught-exception' || reply.stage === 'unhandled-rejection');
}

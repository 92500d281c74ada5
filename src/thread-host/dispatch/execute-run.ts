import { ErrorDetail } from '../../contracts/error-detail.js';
import type { Limits } from '../../contracts/limits.js';
import type { RunRequest, TaskReply } from '../../contracts/protocol.js';
import { validateResult, type ExecResult } from '../../contracts/result.js';
import { describeThrow } from '../../runtime/guard-listener.js';
import { watchCancellation, type WatchEnd } from './cancel-watch.js';
import { openControlPort } from '../ports/control-port.js';
import type { ForcedEnd, RunEndReason } from '../../model/fault-kinds.js';
import type { EmbeddingSinks, RunContainment } from '../../model/host-types.js';
import { hostFailure } from '../../model/host-problems.js';
import { leafFrames } from './leaf-stack.js';
import type { HostMemoryWatch } from '../threads/memory-watchdog.js';
import { guardRun, type RunFault } from './run-guard.js';
import type { RunStream } from '../ports/run-stream.js';
import { openGroupClaims } from '../ports/group-claims.js';
import { exposeSinks } from '../ports/sink-port.js';
import { MalformedReplyError, type WorkerHandle } from '../threads/worker-handle.js';
import { newRunMarker } from '../../runtime/run-marker.js';
import { describeFailedReply, isOutOfMemory } from '../threads/bounded-call.js';

/** Everything one run in one thread needs. */
export interface RunContext {
  readonly handle: WorkerHandle;
  readonly request: RunRequest;
  readonly stream: RunStream;
  readonly sinks: EmbeddingSinks | undefined;
  readonly signal: AbortSignal | undefined;
  readonly timeoutMs: number | undefined;
  /** Bound on leaf text entering a Problem detail. */
  readonly detailLimit: number;
  /** Aborted when the host closes: the run settles 499 at once. */
  readonly closing: AbortSignal;
  /** The host's limits, whole: the run's guard, its sink port and its grace read them. */
  readonly limits: Limits;
  /** How long the thread may take to acknowledge the run (a leaf still loading). */
  readonly loadTimeoutMs: number;
  /** The host's RSS watch, shared by every run. */
  readonly memory: HostMemoryWatch;
}

/** How a run ended: its accepted result, whether its thread must be retired, and the groups it started. */
export interface RunEnd {
  readonly result: ExecResult;
  readonly poisoned: boolean;
  readonly groups: ReadonlySet<number>;
  /** How many group reports were refused as not the run's own: the run is swept for its marker when any was. */
  readonly refusedGroups: number;
  /** The `PLURNK_EXECS_RUN` value every child the run started carries. */
  readonly marker: string;
  /** When the run was posted (epoch ms): none of its processes is older. */
  readonly since: number;
  /** Ends the run's claim to its marker and groups (live-claims.ts): call it once they were reaped. */
  readonly release: () => void;
  /** Why the run counts as a crash of its tag (the host had to kill or retire a broken thread); undefined otherwise. */
  readonly crash: string | undefined;
  readonly console: RunContainment['console'];
  readonly forcedEnd: ForcedEnd | null;
}

// A limit that ends a run at once (`guard.fatal`) settles it as forced with end 'fault', like a
// limit whose interrupt ran past grace: either way the guard latched the fault, which decides the result.
type Settled =
  { kind: 'reply'; reply: TaskReply } | { kind: 'died'; error: unknown } | { kind: 'forced'; end: WatchEnd };

/**
 * Runs one EXEC in `handle`'s thread over its control and sink channels, and turns whatever
 * happens into exactly one result. The worker's reply comes after its flush barrier, so every
 * sink call the leaf made is applied when the reply is read. An abort, a deadline or broken
 * output cap reaches the leaf's signal, and a run still unsettled `graceMs` later has its
 * thread terminated; a thread that stops answering or outgrows its memory is terminated at
 * once. A limit the run broke decides its result, whatever the leaf answered. Never rejects.
 */
export async function executeRun(context: RunContext): Promise<RunEnd> {
  const { handle, request, stream } = context;
  // On a thread whose leaf is loaded the run starts at once: no `started` (one message fewer per EXEC).
  const announce = !handle.loaded;
  const guard = guardRun({
    limits: context.limits,
    ackMs: context.loadTimeoutMs,
    stream,
    memory: context.memory,
    interrupt: () => watch.interrupt(),
    started: !announce,
  });
  const marker = newRunMarker();
  // Live until the caller reaped what the run left: the engine's namespace sweep spares it until then.
  const claims = openGroupClaims(marker);
  const control = openControlPort(
    {
      claims,
      onRefused: (pgid, why) =>
        stream.violate(
          'foreign-process-group',
          `reportProcessGroup(${pgid}): refused, ${why}; a run may report only groups it started, and the host never signals another`,
        ),
    },
    (message) => guard.onMessage(message),
    (error) => stream.violate('host-error', `the host's control port listener failed: ${describeThrow(error)}`),
    handle.control,
  );
  const since = Date.now();
  const sinkPort = exposeSinks(stream, {
    sinks: context.sinks,
    limits: context.limits,
    onOverBudget: () => guard.messageOverflow(),
    channel: handle.sinks,
  });
  const watch = watchCancellation({
    signal: context.signal,
    timeoutMs: context.timeoutMs,
    graceMs: context.limits.graceMs,
    closing: context.closing,
    abort: (reason) => control.abort(reason),
  });
  try {
    // Silence is measured from the moment run() began (`started`, or the post on a loaded
    // thread); before it only the acknowledgement bound applies (a leaf still loading is not hung).
    const task = handle.post({ kind: 'run', request, id: control.task, marker, announce });
    const settled = await Promise.race<Settled>([
      task.then(
        (reply) => ({ kind: 'reply', reply }),
        (error: unknown) => ({ kind: 'died', error }),
      ),
      watch.forced.then((end) => ({ kind: 'forced', end })),
      guard.fatal.then(() => ({ kind: 'forced', end: 'fault' })),
    ]);
    if (settled.kind === 'forced') {
      const why = settled.end === 'fault' ? (guard.fault()?.code ?? 'run fault') : `run ${settled.end}`;
      await handle.terminateWithin(context.limits.graceMs, `the host terminated the thread: ${why}`);
    }
    // Without a reply there was no flush barrier. What the thread posted before it died is
    // queued on the ports, but its 'message' events can come a loop turn after the death was
    // noticed (under load the zoo's process.exit() case lost its last write that way): take it
    // now, so output written and groups reported before the fault are kept.
    if (settled.kind !== 'reply') {
      sinkPort.drain();
      control.drain();
    }
    const fault = guard.fault();
    const escaped = settled.kind === 'reply' && isEscape(settled.reply);
    const result = cancelledDespite(
      fault
        ? hostFailure(fault.code, ErrorDetail.preview(fault.detail, context.detailLimit))
        : watch.timedOut() && settled.kind === 'reply'
          ? timeoutFailure(context, true)
          : judge(settled, context),
      context,
    );
    // An output cap is an ordinary failure; an RSS kill that was a guess among several runs
    // may have hit an innocent tag, so neither counts against the breaker.
    const crash =
      fault && fault.code !== 'output-limit-exceeded' && fault.uncertain !== true
        ? fault.detail
        : escaped
          ? result.problem?.detail
          : undefined;
    return {
      result,
      // A run that flooded its sink channel closed it: its thread cannot serve another.
      poisoned: settled.kind !== 'reply' || escaped || sinkPort.overflowed,
      groups: control.groups,
      refusedGroups: control.refusedGroups,
      marker,
      since,
      release: claims.close,
      crash,
      console: guard.console(),
      forcedEnd: forcedEnd(settled, fault, watch.timedOut(), escaped),
    };
  } catch (error) {
    // A bug in judging the run must not reject exec(): the run fails and its thread is retired.
    const detail = `the host could not judge the run: ${describeThrow(error)}`;
    stream.violate('host-error', detail);
    void handle.terminate(detail);
    return {
      result: hostFailure('executor-threw', ErrorDetail.preview(detail, context.detailLimit)),
      poisoned: true,
      groups: control.groups,
      refusedGroups: control.refusedGroups,
      marker,
      since,
      release: claims.close,
      crash: undefined,
      console: guard.console(),
      forcedEnd: { reason: 'host-error', terminated: true },
    };
  } finally {
    guard.dispose();
    watch.dispose();
    control.close();
    sinkPort.close();
  }
}

/** The result of a run that broke no limit (a broken limit's fault decides the result before this is asked). */
function judge(settled: Settled, context: RunContext): ExecResult {
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
function cancelledDespite(result: ExecResult, context: RunContext): ExecResult {
  if (result.status >= 400) return result;
  if (!context.signal?.aborted && !context.closing.aborted) return result;
  return hostFailure(
    'execution-cancelled',
    `the run was aborted, but the leaf still reported status ${result.status}; an aborted run settles 499`,
    { leafStatus: result.status },
  );
}

function timeoutFailure(context: RunContext, settledInGrace: boolean): ExecResult {
  const after = settledInGrace
    ? 'it settled within the grace period'
    : `it did not settle within ${context.limits.graceMs}ms; its worker thread was terminated`;
  return hostFailure(
    'execution-timeout',
    `the run exceeded its ${context.timeoutMs}ms deadline and was aborted; ${after}`,
  );
}

/** Why the host ended the run, when it did: the limit it broke first, else how the run's task ended. */
function forcedEnd(
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

function isEscape(reply: TaskReply): boolean {
  return !reply.ok && (reply.stage === 'uncaught-exception' || reply.stage === 'unhandled-rejection');
}

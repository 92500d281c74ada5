import { ErrorDetail } from '../contracts/error-detail.js';
import type { RunRequest, TaskReply } from '../contracts/protocol.js';
import { validateResult, type ExecResult } from '../contracts/result.js';
import { describeError } from '../contracts/serialized-error.js';
import { watchCancellation, type ForcedEnd } from './cancel-watch.js';
import { openControlPort } from './control-port.js';
import type { EmbeddingSinks } from './host-types.js';
import { hostFailure } from './host-problems.js';
import type { RunStream } from './run-stream.js';
import { exposeSinks } from './sink-port.js';
import type { WorkerHandle } from './worker-handle.js';

/** Everything one run in one thread needs. */
export interface RunContext {
  readonly handle: WorkerHandle;
  readonly request: RunRequest;
  readonly stream: RunStream;
  readonly sinks: EmbeddingSinks | undefined;
  readonly signal: AbortSignal | undefined;
  readonly timeoutMs: number | undefined;
  readonly graceMs: number;
  /** Bound on leaf text entering a Problem detail. */
  readonly limit: number;
  /** Aborted when the host closes: the run settles 499 at once. */
  readonly closing: AbortSignal;
}

/** How a run ended: its accepted result, whether its thread must be retired, and the groups it started. */
export interface RunEnd {
  readonly result: ExecResult;
  readonly poisoned: boolean;
  readonly groups: ReadonlySet<number>;
}

type Settled = { kind: 'reply'; reply: TaskReply } | { kind: 'died'; error: unknown } | { kind: 'forced'; end: ForcedEnd };

/**
 * Runs one EXEC in `handle`'s thread over fresh control and sink ports, and turns whatever
 * happens into exactly one result. The worker's reply comes after its flush barrier, so every
 * sink call the leaf made is applied when the reply is read. An abort or deadline reaches the
 * leaf's signal; a run still unsettled `graceMs` later has its thread terminated.
 */
export async function executeRun(context: RunContext): Promise<RunEnd> {
  const { handle, request, stream } = context;
  const control = openControlPort();
  const sinkPort = exposeSinks(stream, context.sinks);
  const watch = watchCancellation({
    signal: context.signal,
    timeoutMs: context.timeoutMs,
    graceMs: context.graceMs,
    closing: context.closing,
    abort: (reason) => control.abort(reason),
  });
  try {
    // A run's deadline counts from exec(), so it has no use for `started`.
    const task = handle.post({ kind: 'run', request, control: control.workerPort, sinks: sinkPort.workerPort, announce: false }, [control.workerPort, sinkPort.workerPort]);
    const settled = await Promise.race<Settled>([
      task.then((reply) => ({ kind: 'reply', reply }), (error: unknown) => ({ kind: 'died', error })),
      watch.forced.then((end) => ({ kind: 'forced', end })),
    ]);
    if (settled.kind === 'forced') await handle.terminate(`the host terminated the thread: run ${settled.end}`);
    // Without a reply there was no flush barrier. Messages the thread posted before it died
    // wait behind uv async handles that all fire in one poll phase; one turn delivers them,
    // so output written before the fault is kept.
    if (settled.kind !== 'reply') await new Promise((resolve) => setImmediate(resolve));
    const result = watch.timedOut() && settled.kind === 'reply' ? timeoutFailure(context, true) : judge(settled, context);
    return { result, poisoned: settled.kind !== 'reply', groups: control.groups };
  } finally {
    watch.dispose();
    control.close();
    sinkPort.close();
  }
}

function judge(settled: Settled, context: RunContext): ExecResult {
  const bound = (text: string) => ErrorDetail.preview(text, context.limit);
  switch (settled.kind) {
    case 'forced':
      if (settled.end === 'timeout') return timeoutFailure(context, false);
      if (settled.end === 'closed') return hostFailure('execution-cancelled', 'the host closed while the run was in flight; its worker thread was terminated');
      return hostFailure('execution-cancelled', `the run did not settle within ${context.graceMs}ms of its abort; its worker thread was terminated`);
    case 'died':
      return hostFailure('executor-threw', bound(`the worker thread died during run(): ${context.handle.deathReason ?? String(settled.error)}`));
    case 'reply':
      return judgeReply(settled.reply, bound);
  }
}

function judgeReply(reply: TaskReply, bound: (text: string) => string): ExecResult {
  if (!reply.ok) {
    if (reply.stage === 'reply') return hostFailure('executor-invalid-result', bound(`run() resolved a value that cannot cross the thread: ${describeError(reply.error)}`));
    const what = reply.stage === 'load' ? 'the leaf could not be loaded' : 'run() threw';
    return hostFailure('executor-threw', bound(`${what}: ${describeError(reply.error)}`), { error: reply.error.name });
  }
  const validation = validateResult(reply.value);
  if (validation.ok) return validation.result;
  return hostFailure('executor-invalid-result', bound(`run() resolved an invalid result: ${validation.issues.join('; ')}`));
}

function timeoutFailure(context: RunContext, settledInGrace: boolean): ExecResult {
  const after = settledInGrace ? 'it settled within the grace period' : `it did not settle within ${context.graceMs}ms; its worker thread was terminated`;
  return hostFailure('execution-timeout', `the run exceeded its ${context.timeoutMs}ms deadline and was aborted; ${after}`);
}

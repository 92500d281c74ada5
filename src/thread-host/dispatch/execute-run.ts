import { ErrorDetail } from '../../contracts/error-detail.js';
import type { Limits } from '../../contracts/limits.js';
import type { RunRequest } from '../../contracts/protocol.js';
import type { ExecResult } from '../../contracts/result.js';
import { describeThrow } from '../../runtime/guard-listener.js';
import { watchCancellation } from './cancel-watch.js';
import { nextTaskId, openControlPort, type ControlPort } from '../ports/control-port.js';
import type { ForcedEnd } from '../../model/fault-kinds.js';
import type { EmbeddingSinks, RunContainment, RunUsage } from '../../model/host-types.js';
import { hostFailure } from '../../model/host-problems.js';
import type { HostMemoryWatch } from '../threads/memory-watchdog.js';
import type { SharedTicker } from '../../runtime/shared-ticker.js';
import { forcedEnd, isEscape, judgeRun, type Settled } from './judge-run.js';
import { guardRun, type RunGuard } from './run-guard.js';
import type { RunStream } from '../ports/run-stream.js';
import { openGroupClaims, type GroupClaims } from '../ports/group-claims.js';
import { exposeSinks } from '../ports/sink-port.js';
import type { WorkerHandle } from '../threads/worker-handle.js';
import { newRunMarker } from '../../runtime/run-marker.js';
import { markTicksSinceBoot } from '../../runtime/group-leader.js';
import { judgeFoldedEffect, watchFoldedEffect, type FoldedEffectEnd } from './folded-effect.js';

/** How a folded effect() that overran its bound settles the race: the host ends the task. */
const EFFECT_OVERRAN: Settled = { kind: 'forced', end: 'fault' };

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
  /** The host's heartbeat ticker: each run's silence is checked at its ticks. */
  readonly heartbeats: SharedTicker;
  /** Where the caller passed no effect: effect() is called in the run's own task first, bounded to `timeoutMs` from its start. */
  readonly foldEffect?: { readonly timeoutMs: number };
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
  /** The first group the run reported: none of its processes has an older pid (process-sweep.ts `firstPid`). */
  readonly firstGroup: number | undefined;
  /** Ends the run's claim to its marker and groups (live-claims.ts): call it once they were reaped. */
  readonly release: () => void;
  /** Why the run counts as a crash of its tag (the host had to kill or retire a broken thread); undefined otherwise. */
  readonly crash: string | undefined;
  readonly console: RunContainment['console'];
  readonly forcedEnd: ForcedEnd | null;
  /** What the run used, as the host measured it. */
  readonly usage: RunUsage;
  /** How a folded effect() ended (`foldEffect`): when it refused the EXEC, run() never ran and `result` is that refusal. */
  readonly effect?: FoldedEffectEnd;
}

/**
 * Runs one EXEC in `handle`'s thread over its control and sink channels, and turns whatever
 * happens into exactly one result. What the leaf posted on its sinks is applied before the
 * reply is read: past a few messages the reply comes after the worker's flush barrier, and the
 * few left are taken from the port when it arrives. An abort, a deadline or broken
 * output cap reaches the leaf's signal, and a run still unsettled `graceMs` later has its
 * thread terminated; a thread that stops answering or outgrows its memory is terminated at
 * once. A limit the run broke decides its result, whatever the leaf answered. Never rejects.
 */
export async function executeRun(context: RunContext): Promise<RunEnd> {
  const { handle, request, stream } = context;
  // On a thread whose leaf is loaded the run starts at once: no `started` (one message fewer per EXEC).
  const announce = !handle.loaded;
  const marker = newRunMarker();
  const id = nextTaskId();
  const since = Date.now();
  // Before the post: the thread may start a child before this thread gets to the claims below.
  const sinceTicks = markTicksSinceBoot();
  const folded = context.foldEffect === undefined ? undefined : { effect: true as const };
  const message = { kind: 'run', request, id, marker, announce, ...folded } as const;
  // Posted before the run's ports are bound, so the thread wakes while the host binds them: a
  // port hands its messages over in its own events, never inside this synchronous setup, so none
  // of the run's is lost or misdirected. A caller signal already aborted is the exception: its
  // abort must reach the thread before the task (the leaf sees it from its first line).
  const early = context.signal?.aborted === true ? undefined : handle.post(message);
  // Raced below; handled here too, so a throw in the setup cannot leave its rejection unhandled.
  early?.catch(() => {});
  const guard = guardRun({
    limits: context.limits,
    ackMs: context.loadTimeoutMs,
    stream,
    memory: context.memory,
    heartbeats: context.heartbeats,
    interrupt: () => watch.interrupt(),
    started: !announce,
  });
  // Live until the caller reaped what the run left: the engine's namespace sweep spares it until then.
  const claims = openGroupClaims(marker, undefined, sinceTicks);
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
    id,
  );
  const sinkPort = exposeSinks(stream, {
    ...handle.sinkChannel,
    sinks: context.sinks,
    limits: context.limits,
    onOverBudget: () => guard.messageOverflow(),
  });
  const effectWatch =
    context.foldEffect === undefined
      ? undefined
      : watchFoldedEffect(handle, control.task, context.foldEffect.timeoutMs);
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
    const task = early ?? handle.post(message);
    let acknowledged = !announce;
    if (effectWatch !== undefined) {
      if (announce) void control.started.then(() => ((acknowledged = true), effectWatch.start()));
      else effectWatch.start();
    }
    let overran = false;
    const settled = await Promise.race<Settled>([
      task.then(
        (reply) => ({ kind: 'reply', reply }),
        (error: unknown) => ({ kind: 'died', error }),
      ),
      watch.forced.then((end) => ({ kind: 'forced', end })),
      guard.fatal.then(() => ({ kind: 'forced', end: 'fault' })),
      ...(effectWatch === undefined ? [] : [effectWatch.overran.then(() => ((overran = true), EFFECT_OVERRAN))]),
    ]);
    if (settled.kind === 'forced') {
      const why = overran
        ? `effect() did not return within ${context.foldEffect!.timeoutMs}ms`
        : settled.end === 'fault'
          ? (guard.fault()?.code ?? 'run fault')
          : `run ${settled.end}`;
      await handle.terminateWithin(context.limits.graceMs, `the host terminated the thread: ${why}`);
    }
    // What the thread posted on its sink port before its reply (or before it died) is queued
    // there, but its 'message' events can come a loop turn later: take it now. A reply follows a
    // flush barrier only past TAKEN_AT_REPLY unflushed messages (worker/sink-proxy.ts), and a
    // thread that died posted none (under load the zoo's process.exit() case lost its last
    // write that way), so output written and groups reported before the end are kept.
    sinkPort.drain();
    if (settled.kind !== 'reply') control.drain();
    const effect =
      context.foldEffect === undefined
        ? undefined
        : judgeFoldedEffect(settled, {
            returned: handle.effectReturned(control.task),
            overran,
            timeoutMs: context.foldEffect.timeoutMs,
            acknowledged,
            unresponsive: guard.fault()?.reason === 'unresponsive',
            loadTimeoutMs: context.loadTimeoutMs,
            deathReason: handle.deathReason,
          });
    if (effect?.refused === true) return refusedByEffect(effect, control, claims, marker, since, guard, context);
    const fault = guard.fault();
    const escaped = settled.kind === 'reply' && isEscape(settled.reply);
    const result = judgeRun(settled, fault, watch.timedOut(), context);
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
      ...reported(control, claims, marker, since, guard),
      crash,
      forcedEnd: forcedEnd(settled, fault, watch.timedOut(), escaped),
      ...(effect === undefined ? {} : { effect }),
    };
  } catch (error) {
    // A bug in judging the run must not reject exec(): the run fails and its thread is retired.
    const detail = `the host could not judge the run: ${describeThrow(error)}`;
    stream.violate('host-error', detail);
    void handle.terminate(detail);
    return {
      result: hostFailure('executor-threw', ErrorDetail.preview(detail, context.detailLimit)),
      poisoned: true,
      ...reported(control, claims, marker, since, guard),
      crash: undefined,
      forcedEnd: { reason: 'host-error', terminated: true },
    };
  } finally {
    effectWatch?.dispose();
    guard.dispose();
    watch.dispose();
    control.close();
    sinkPort.close();
  }
}

/** The end of a run task whose folded effect() refused the EXEC: run() never ran; what the task reported is reaped all the same. */
function refusedByEffect(
  effect: Extract<FoldedEffectEnd, { refused: true }>,
  control: ControlPort,
  claims: GroupClaims,
  marker: string,
  since: number,
  guard: RunGuard,
  context: RunContext,
): RunEnd {
  const { failure } = effect;
  const extensions: Record<string, string[]> = failure.stack === undefined ? {} : { stack: failure.stack };
  return {
    result: hostFailure(failure.code, ErrorDetail.preview(failure.detail, context.detailLimit), extensions),
    poisoned: failure.poisoned,
    ...reported(control, claims, marker, since, guard),
    crash: undefined,
    forcedEnd: null,
    effect,
  };
}

/** What every end of a run task carries of what the task reported: its groups and marker, its claims' release, its console, its usage. */
function reported(control: ControlPort, claims: GroupClaims, marker: string, since: number, guard: RunGuard) {
  return {
    groups: control.groups,
    refusedGroups: control.refusedGroups,
    marker,
    since,
    firstGroup: control.firstGroup,
    release: claims.close,
    console: guard.console(),
    usage: { processesStarted: control.startedGroups, peakThreadBytes: guard.peakFootprint() },
  };
}

import { isLoadStage, type TaskReply, type WorkerTask } from '../../contracts/protocol.js';
import { describeError } from '../../contracts/serialized-error.js';
import { TimeoutError, withDeadline } from '../../runtime/deadline.js';
import { newRunMarker } from '../../runtime/run-marker.js';
import { openControlPort } from '../ports/control-port.js';
import { openGroupClaims } from '../ports/group-claims.js';
import { reapGroups } from './reaper.js';
import { describeThrow } from '../../runtime/guard-listener.js';
import type { StartWait } from './start-gate.js';
import type { Purpose, TagWorkers } from './tag-workers.js';
import type { WorkerHandle } from './worker-handle.js';

export { isOutOfMemory } from './out-of-memory.js';

/** One short call into a leaf (probe or effect): what to post and how long each stage may take. */
export interface ThreadCall {
  /** The task to post as `id` on its thread's control channel, carrying `marker`; `announce` asks the thread to say when the call starts. */
  readonly task: (id: number, marker: string, announce: boolean) => WorkerTask;
  /** How the call is named in texts: `probe`, `effect()`. */
  readonly name: string;
  /** Bound on the call from the moment it starts in the thread. */
  readonly timeoutMs: number;
  /** The text of a call that overran `timeoutMs`. */
  readonly overrun: string;
  /** Bound on loading the leaf before the call starts; skipped when the thread's leaf is known loaded and `announce` is not forced. */
  readonly loadTimeoutMs: number;
  /** True: always wait for `started` under the load bound (a probe, whose task always announces). */
  readonly alwaysAnnounce?: boolean;
  readonly graceMs: number;
  /** Aborted when the host closes: the call ends at once and its thread is poisoned. */
  readonly closing?: AbortSignal | undefined;
}

/** How a bounded call ended. Only `reply` leaves the thread reusable; the others poison it. */
export type CallOutcome = (
  | { readonly kind: 'reply'; readonly reply: TaskReply }
  | { readonly kind: 'load-timeout' | 'call-timeout' | 'died'; readonly detail: string }
) & {
  /** ms from the moment the call started in the thread to its end, read before the release and the reap; 0 when it never started. */
  readonly callMs: number;
};

/**
 * Makes one bounded call in `handle`'s thread: a binding of its control channel, the post, the load
 * deadline (while the leaf loads), the call deadline (from the moment the call starts), an
 * abort to the leaf on overrun, and the reap of every group the call reported (and of its
 * marker, when it reported one or overran). `release` runs before the reap, so a poisoned
 * thread is retired before its groups are swept. Never rejects.
 */
export async function callInThread(
  handle: WorkerHandle,
  call: ThreadCall,
  release?: (poisoned: boolean) => Promise<void> | void,
): Promise<CallOutcome> {
  const marker = newRunMarker();
  // Live until what the call left was reaped: the engine's namespace sweep spares it until then.
  const claims = openGroupClaims(marker);
  const control = openControlPort({ claims }, undefined, undefined, handle.control);
  const since = Date.now();
  let poisoned = false;
  // Latency counts from the moment the call starts; a leaf that never loaded has none.
  let startedAt: number | undefined;
  void control.started.then(() => (startedAt = performance.now()));
  const callMs = () => (startedAt === undefined ? 0 : Math.round(performance.now() - startedAt));
  let stage: 'load-timeout' | 'call-timeout' = 'load-timeout';
  try {
    // On a thread whose leaf is loaded the call starts at once: no `started`, no load deadline.
    const announce = call.alwaysAnnounce === true || !handle.loaded;
    const task = handle.post(call.task(control.task, marker, announce));
    if (announce)
      await withDeadline(
        Promise.race([control.started, task]),
        call.loadTimeoutMs,
        `the leaf did not load within loadTimeoutMs ${call.loadTimeoutMs}ms`,
        call.closing,
      );
    stage = 'call-timeout';
    const reply = await withDeadline(task, call.timeoutMs, call.overrun, call.closing);
    return { kind: 'reply', reply, callMs: callMs() };
  } catch (error) {
    poisoned = true;
    // Ask the call to reap its own work; the thread is retired and its groups reaped regardless.
    control.abort(new DOMException(`the ${call.name} timed out`, 'TimeoutError'));
    if (error instanceof TimeoutError) return { kind: stage, detail: error.message, callMs: callMs() };
    const during = call.name === 'probe' ? 'while probing' : `during ${call.name}`;
    return {
      kind: 'died',
      detail: `the worker thread died ${during}: ${handle.deathReason ?? String(error)}`,
      callMs: callMs(),
    };
  } finally {
    control.close();
    await release?.(poisoned);
    const swept = control.groups.size > 0 || control.refusedGroups > 0 || poisoned ? marker : undefined;
    try {
      await reapGroups(control.groups, call.graceMs, swept, since);
    } finally {
      claims.close();
    }
  }
}

/**
 * Borrows a thread of `workers` for one bounded call and gives it back (retired when the call
 * poisoned it). A call waits for a start slot as long as it takes (a probe at boot waits for
 * the tags before it; none of it counts against the leaf), unless the host closes meanwhile.
 */
export async function borrowForCall(workers: TagWorkers, call: ThreadCall, wait = true): Promise<CallOutcome> {
  let handle: WorkerHandle;
  try {
    handle = await workers.acquire('call', { signals: [call.closing] });
  } catch (error) {
    return { kind: 'died', detail: `no thread could start for the ${call.name}: ${describeThrow(error)}`, callMs: 0 };
  }
  return callInThread(handle, call, (poisoned) => {
    const released = workers.release(handle, { ranRun: false, poisoned });
    return wait ? released : undefined;
  });
}

/**
 * A thread lent to a run for the whole EXEC (effect, then run): `ranRun` and `poisoned` are set
 * by the borrower as it goes, and decide, when the lease ends, whether the thread is reused.
 */
export interface Lease {
  readonly handle: WorkerHandle;
  ranRun: boolean;
  poisoned: boolean;
}

/**
 * Lends a thread of `workers` to `use`, and gives it back however `use` ends (a turn later off
 * its path). Waiting for the thread rejects as {@link TagWorkers.acquire} does, before `use` runs.
 */
export async function withLease<T>(
  workers: TagWorkers,
  purpose: Purpose,
  use: (lease: Lease) => Promise<T>,
  wait?: StartWait,
): Promise<T> {
  const handle = workers.acquireIdle(purpose) ?? (await workers.acquire(purpose, wait));
  const lease: Lease = { handle, ranRun: false, poisoned: false };
  try {
    return await use(lease);
  } finally {
    void workers.release(lease.handle, { ranRun: lease.ranRun, poisoned: lease.poisoned });
  }
}

/**
 * The one text for a failed task reply's stage: `name` is the call (`probe`, `effect()`,
 * `run()`), `answered` how its value came back (`answered`, `resolved`).
 */
export function describeFailedReply(reply: Extract<TaskReply, { ok: false }>, name: string, answered: string): string {
  const error = describeError(reply.error);
  if (isLoadStage(reply.stage)) return `the leaf could not be loaded: ${error}`;
  if (reply.stage === 'reply') return `${name} ${answered} a value that cannot cross the thread: ${error}`;
  if (reply.stage === 'call') return `${name} threw: ${error}`;
  return `an ${reply.stage.replace('-', ' ')} escaped ${name} (from a timer or callback it started): ${error}`;
}

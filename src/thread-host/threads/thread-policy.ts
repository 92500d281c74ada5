import type { RecyclePolicy } from '../../model/host-types.js';
import type { RetireReason } from '../../model/observe/observe-events.js';

/**
 * The pick and retire policy of a tag's threads, as pure functions over what a thread has
 * done: tag-workers.ts applies it, test/unit/thread-host/threads/thread-policy.test.ts tables it.
 */

/** What the policy reads of one thread. */
export interface ThreadFacts {
  /** Runs the thread has executed (probes and effect calls do not count). */
  readonly runs: number;
  /** `'starting'` while a new thread still warms up (WorkerHandle.state). */
  readonly state?: string;
}

/**
 * Index of the idle thread the next task takes, or -1 to start a new one: the most-used
 * reusable thread first (the last given back among equals), so reuse stays on few threads
 * and the never-used spare is taken only when no used thread is idle. Under `'each-run'` no
 * used thread is ever idle, so this is a spare: a warm one before one still starting (the
 * newest spare is often the one just started, and a run that took it waited for its start
 * while a warm spare sat idle).
 */
export function pickThread(idle: readonly ThreadFacts[]): number {
  let best = -1;
  for (let i = 0; i < idle.length; i++) if (best === -1 || rank(idle[i]!) >= rank(idle[best]!)) best = i;
  return best;
}

/** More runs first; among equals, a warm thread before one still starting. */
function rank(thread: ThreadFacts): number {
  return thread.runs * 2 + (thread.state === 'starting' ? 0 : 1);
}

/** Why a thread given back is retired rather than kept idle. */
export interface ReleaseFacts extends ThreadFacts {
  /** The tag is closing: nothing is kept. */
  readonly closed: boolean;
  /** The task overran, was cancelled past grace, or broke the protocol: the thread is suspect. */
  readonly poisoned: boolean;
  /** The thread died while it had the task. */
  readonly dead: boolean;
}

/** True when a thread given back must be retired: closed, poisoned, dead, or used up by `recycle`. */
export function shouldRetire(thread: ReleaseFacts, recycle: RecyclePolicy): boolean {
  return retireReason(thread, recycle) !== undefined;
}

/**
 * Why a thread given back is retired (the first that holds of: the tag closed, the thread
 * died, it is poisoned, `recycle` used it up), or undefined when it is kept.
 */
export function retireReason(thread: ReleaseFacts, recycle: RecyclePolicy): RetireReason | undefined {
  if (thread.closed) return 'host-closed';
  if (thread.dead) return 'crashed';
  if (thread.poisoned) return 'poisoned';
  return usedUp(thread.runs, recycle) ? 'recycled' : undefined;
}

/** True when a thread that ran `runs` runs may run no more under `recycle`. */
export function usedUp(runs: number, recycle: RecyclePolicy): boolean {
  if (recycle === 'never') return false;
  if (recycle === 'each-run') return runs >= 1;
  return runs >= recycle.afterRuns;
}

/**
 * How many never-used spares a tag keeps, for `wanted` runs at once (its demand): enough that
 * each finds a warm thread, used idle threads counting where the policy lets them run again,
 * and one at least while any run is wanted (a second run in flight finds it warm). None when
 * nothing is wanted: a tag nobody uses holds no spare.
 */
export function sparesTarget(idle: readonly ThreadFacts[], wanted: number): number {
  if (wanted <= 0) return 0;
  const reusable = idle.filter((thread) => thread.runs > 0).length;
  return Math.max(1, wanted - reusable);
}

/** How often idle threads' event loops are sampled. */
export const IDLE_SAMPLE_MS = 1000;
/** Past this share of wall time busy, an idle thread is doing work nobody asked for. */
export const IDLE_BUSY_SHARE = 0.5;
/** Samples in a row past the share before the thread is retired: one busy second may be a leaf's late cleanup. */
export const IDLE_BUSY_STRIKES = 2;

/**
 * One idle-load sample judged: the strikes the thread now has (samples in a row past
 * {@link IDLE_BUSY_SHARE}), and whether that retires it.
 */
export function judgeIdleLoad(strikes: number, utilization: number): { strikes: number; retire: boolean } {
  if (utilization <= IDLE_BUSY_SHARE) return { strikes: 0, retire: false };
  const next = strikes + 1;
  return next >= IDLE_BUSY_STRIKES ? { strikes: 0, retire: true } : { strikes: next, retire: false };
}

/** Why an idle thread whose load {@link judgeIdleLoad} retired counts as a crash of its tag. */
export function describeIdleLoad(utilization: number): string {
  const percent = Math.round(utilization * 100);
  return `an idle thread kept its event loop ${percent}% busy with no task in flight (${IDLE_BUSY_STRIKES} samples of ${IDLE_SAMPLE_MS}ms past ${IDLE_BUSY_SHARE * 100}%): work the leaf left running; the thread was retired`;
}

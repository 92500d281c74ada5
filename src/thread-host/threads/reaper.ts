import { sweepRunProcesses, type SweepTarget } from '../../runtime/process-sweep.js';
import type { WorkerHandle } from './worker-handle.js';

/** What a reap found and what it could not kill. */
export interface Reaped {
  /** Living processes of the run when the reap began: what `containment.reapedProcesses` counts. */
  readonly found: number;
  /** Pids that survived even SIGKILL (normally none). */
  readonly survivors: number[];
}

/**
 * Kills what a run (or task, or retired thread) left alive: every member of the groups it
 * reported, every process carrying its marker (and the members of their groups), and every
 * descendant of those — SIGHUP first, SIGKILL to whatever is still alive `graceMs` later
 * (runtime/process-sweep.ts). The marker is looked for only when one is given, since reading
 * every process's environment costs milliseconds: callers pass it when the run reported a group
 * or ended badly (a thread blocked in `execSync` reports nothing). Zombies count as gone: PID 1
 * here does not reap orphans. The host process, its group and its ancestors are never signalled,
 * whatever a leaf reported; a signal that fails is skipped and the reap goes on.
 */
export function reapRun(target: SweepTarget, graceMs: number): Promise<Reaped> {
  return sweepRunProcesses(target, graceMs);
}

/**
 * {@link reapRun} for groups (and a marker, whose processes cannot have started before
 * `since`, epoch ms), resolving with the pids that survived SIGKILL.
 */
export async function reapGroups(
  pgids: Iterable<number>,
  graceMs: number,
  marker?: string,
  since?: number,
): Promise<number[]> {
  const target =
    marker === undefined ? { groups: pgids } : { groups: pgids, marker, ...(since === undefined ? {} : { since }) };
  const { survivors } = await reapRun(target, graceMs);
  return survivors;
}

/**
 * Ends a retired thread: terminates it (once `after` settled) and reaps its stray groups — and,
 * when it reported one or ended badly (`sweep`), whatever carries its thread marker. The wait
 * for the thread to end is bounded by `graceMs` (a thread blocked in the kernel cannot end; it
 * is reaped around and left to end when its call returns), and the reap by `graceMs` plus the
 * SIGKILL settle time, so it always settles; it never rejects.
 */
export async function endThread(
  handle: WorkerHandle,
  graceMs: number,
  after: Promise<void>,
  sweep: boolean,
): Promise<void> {
  try {
    await after;
    try {
      await handle.terminateWithin(graceMs);
    } finally {
      const groups = handle.takeStrayGroups();
      const marker = sweep || groups.length > 0 || handle.refusedStrayGroups > 0 ? handle.marker : undefined;
      try {
        await reapGroups(groups, graceMs, marker, handle.startedAt);
      } finally {
        handle.closeClaims();
      }
    }
  } catch {
    // A group we may not signal (EPERM) must not break retirement; the thread is gone either way.
  }
}

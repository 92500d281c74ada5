import { sweepRunProcesses, type SweepTarget } from '../../runtime/process-sweep.js';

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

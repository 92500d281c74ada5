import { RUN_MARKER } from '../runtime/run-marker.js';
import {
  carriesMarker,
  descendsFromThisProcess,
  environValue,
  HOST_PID,
  readProcStat,
  markTicksSinceBoot,
} from './guard-kit.js';

/**
 * What a leaf in this thread may treat as its own processes. "Own" means: a member of a
 * process group the thread started for the current task (every child the child_process guard
 * spawned is detached into a group of its own and adopted here) or, between tasks, for the
 * thread; a group the leaf reported itself (`reportProcessGroup`) whose leader carries the task's
 * (or thread's) marker, or carries none, descends from this process and started since the task
 * (or thread) began — another run's children descend from this process too; or a process carrying that marker.
 * Never this process, its group, pid 0 or -1. Groups of an earlier task are not own: the host
 * reaped them when that task ended.
 */
export interface OwnProcesses {
  /** The marker value children started now must carry: the running task's, else the thread's. */
  marker(): string;
  /** A task starts with its own marker (undefined: the thread's). */
  beginTask(marker: string | undefined): void;
  /** The task ended: its groups are the host's to reap, no longer the leaf's to signal. */
  endTask(): void;
  /** A group the thread itself started (a detached child's pid). */
  adopt(pgid: number): void;
  /** A group the leaf reported: kept when its leader is provably this run's. */
  claim(pgid: number): void;
  /** True when a signal (or a priority change) aimed at `pid` — a pid, or minus a group id — reaches only own processes. */
  mayTarget(pid: number): boolean;
}

/** The own-process ledger of one thread, whose between-task marker is `threadMarker`. */
export function trackOwnProcesses(threadMarker: string): OwnProcesses {
  const hostGroup = readProcStat(HOST_PID)?.pgrp ?? 0;
  // Null-prototype records: no method a leaf could replace is on the path of a check.
  const threadGroups: Record<number, true> = Object.create(null) as Record<number, true>;
  let taskGroups: Record<number, true> | undefined;
  let taskMarker: string | undefined;
  const threadSince = markTicksSinceBoot();
  let taskSince: (() => number) | undefined;
  const current = () => taskGroups ?? threadGroups;
  const has = (pgid: number) => pgid in threadGroups || (taskGroups !== undefined && pgid in taskGroups);
  const marked = (pid: number) =>
    carriesMarker(pid, RUN_MARKER, threadMarker) ||
    (taskMarker !== undefined && carriesMarker(pid, RUN_MARKER, taskMarker));
  const forbidden = (pid: number) =>
    pid === 0 ||
    pid === -1 ||
    pid === HOST_PID ||
    pid === -HOST_PID ||
    (hostGroup > 1 && (pid === -hostGroup || pid === hostGroup));
  return {
    marker: () => taskMarker ?? threadMarker,
    beginTask(marker) {
      taskMarker = marker;
      taskSince = markTicksSinceBoot();
      taskGroups = Object.create(null) as Record<number, true>;
    },
    endTask() {
      taskMarker = undefined;
      taskSince = undefined;
      taskGroups = undefined;
    },
    adopt(pgid) {
      if (pgid > 1 && !forbidden(pgid)) current()[pgid] = true;
    },
    claim(pgid) {
      if (!(pgid > 1) || forbidden(pgid) || has(pgid)) return;
      const leader = readProcStat(pgid);
      if (leader === undefined || leader.pgrp !== pgid) return;
      // One tick of slack: uptime and start times are both rounded to ticks.
      if (marked(pgid)) {
        current()[pgid] = true;
        return;
      }
      // A leader with another task's marker is another run's, however recent: runs share this process.
      const recent = leader.startTicks >= (taskSince ?? threadSince)() - 1;
      if (recent && environValue(pgid, RUN_MARKER) === undefined && descendsFromThisProcess(pgid))
        current()[pgid] = true;
    },
    mayTarget(pid) {
      if (pid !== (pid | 0) || forbidden(pid)) return false;
      if (pid < 0) return has(-pid);
      if (has(pid)) return true;
      const stat = readProcStat(pid);
      return stat !== undefined && (has(stat.pgrp) || marked(pid));
    },
  };
}

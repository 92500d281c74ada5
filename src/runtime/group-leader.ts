import { groupHasAnyProcess } from './process-group.js';
import { listProcIds, readProcFile, readProcRow } from './proc-table.js';
import { RUN_MARKER } from './run-marker.js';

/** Linux's USER_HZ: the unit of /proc/<pid>/stat's start time and of /proc/uptime × 100. */
const TICKS_PER_SECOND = 100;
/**
 * One tick either way: uptime and a process's start time are both rounded to ticks, so a group
 * whose leader started up to this much before a task began still passes as started by it.
 */
export const SLACK_TICKS = 1;
/** How far up the parent chain a leader may be from the host process. */
const MAX_DEPTH = 64;

/** Now, in clock ticks since boot (the clock of a process's start time); undefined without /proc. */
export function ticksSinceBoot(): number | undefined {
  const seconds = Number(readProcFile('/proc/uptime')?.split(' ')[0]);
  return Number.isFinite(seconds) && seconds > 0 ? Math.floor(seconds * TICKS_PER_SECOND) : undefined;
}

/**
 * "Now" in clock ticks since boot, read only if it is ever asked for: most tasks report no
 * process group, and /proc/uptime was one file read per task on the host's main thread. A late
 * reading subtracts the monotonic time elapsed since this call; boot time runs at least as fast
 * as the monotonic clock (it also counts suspend). Both are whole ticks, rounded down: the
 * reading can be one tick earlier than "now" was, so a group whose leader started up to about
 * two ticks (20 ms) before the task may pass as the task's own ({@link SLACK_TICKS} is one).
 */
export function markTicksSinceBoot(): () => number | undefined {
  const markedAt = performance.now();
  let ticks: number | undefined | null = null;
  return () => {
    if (ticks !== null) return ticks;
    const current = ticksSinceBoot();
    const elapsed = Math.floor(((performance.now() - markedAt) * TICKS_PER_SECOND) / 1000);
    ticks = current === undefined ? undefined : current - elapsed;
    return ticks;
  };
}

/** What a process group's leader is, as far as ownership goes. */
export type LeaderVerdict =
  | { readonly ok: true; readonly startTicks: number; readonly marker: string | undefined }
  | { readonly ok: false; readonly why: string; readonly gone?: true };

/**
 * Whether a leaf's report of group `pgid` can be its own: the group's leader is alive (a zombie
 * included), still leads it, is not the host process, and either carries `ownMarker` as its
 * `PLURNK_EXECS_RUN` (an unguessable value only the task's own children inherit) or descends
 * from the host process and started no earlier than `sinceTicks` (when the task or thread
 * began, {@link ticksSinceBoot}). The leader's marker comes back with it, for the caller to
 * compare with other tasks'. A group whose leader already exited (a shell that put a job in
 * the background) is judged by its living members instead: each must carry `ownMarker` or no
 * marker, and have started no earlier than `sinceTicks`. A group with no living process is
 * `gone`: nothing to reap, and no sign of forgery (a short-lived child often ends before its
 * report is read). Without /proc (no way to tell) every group passes.
 */
export function vetGroupLeader(pgid: number, sinceTicks: number | undefined, ownMarker?: string): LeaderVerdict {
  if (!Number.isSafeInteger(pgid) || pgid <= 1) return { ok: false, why: 'that is no process group id' };
  if (pgid === process.pid) return { ok: false, why: 'that is the host process' };
  if (readProcFile('/proc/self/stat') === undefined) return { ok: true, startTicks: 0, marker: undefined };
  const leader = readProcRow(pgid);
  if (leader === undefined) return vetLeaderless(pgid, sinceTicks, ownMarker);
  if (leader.pgrp !== pgid)
    return { ok: false, why: `process ${pgid} does not lead it (it is in group ${leader.pgrp})` };
  const marker = markerOf(pgid);
  if (marker !== undefined && marker === ownMarker) return { ok: true, startTicks: leader.startTicks, marker };
  if (sinceTicks !== undefined && leader.startTicks < sinceTicks - SLACK_TICKS)
    return { ok: false, why: 'its leader started before the task that reported it began' };
  if (!descendsFromHost(pgid)) {
    // A leader that exited and was reaped between the reads above (a short-lived child often
    // is, under load) left no ancestry to walk: judge its group by the members left, as if gone at the start.
    if (readProcRow(pgid) === undefined) return vetLeaderless(pgid, sinceTicks, ownMarker);
    return { ok: false, why: 'its leader does not descend from the host process' };
  }
  return { ok: true, startTicks: leader.startTicks, marker };
}

/** The start time (ticks since boot) of process `pid`, or undefined when it is gone. */
export function startTicksOf(pid: number): number | undefined {
  return readProcRow(pid)?.startTicks;
}

function vetLeaderless(pgid: number, sinceTicks: number | undefined, ownMarker: string | undefined): LeaderVerdict {
  const members = livingMembers(pgid);
  if (members.length === 0) return { ok: false, why: `no process is in it (gone, or never there)`, gone: true };
  let earliest = Infinity;
  for (const member of members) {
    if (sinceTicks !== undefined && member.startTicks < sinceTicks - SLACK_TICKS)
      return { ok: false, why: `its leader is gone and member ${member.pid} started before the task began` };
    const marker = markerOf(member.pid);
    if (marker !== undefined && marker !== ownMarker)
      return { ok: false, why: `its leader is gone and member ${member.pid} carries another task’s marker` };
    earliest = Math.min(earliest, member.startTicks);
  }
  return { ok: true, startTicks: earliest, marker: ownMarker };
}

function livingMembers(pgid: number): { pid: number; startTicks: number }[] {
  // No process in the group, not even a zombie: the usual case for a short-lived child whose report
  // is judged after it was reaped, answered without reading every /proc/<pid>/stat.
  if (!groupHasAnyProcess(pgid)) return [];
  const members: { pid: number; startTicks: number }[] = [];
  for (const pid of listProcIds()) {
    const stat = readProcRow(pid);
    if (stat?.pgrp === pgid && !stat.zombie) members.push({ pid, startTicks: stat.startTicks });
  }
  return members;
}

function descendsFromHost(pid: number): boolean {
  let current = pid;
  for (let depth = 0; depth < MAX_DEPTH && current > 1; depth++) {
    const stat = readProcRow(current);
    if (stat === undefined) return false;
    if (stat.ppid === process.pid) return true;
    current = stat.ppid;
  }
  return false;
}

/** The `PLURNK_EXECS_RUN` value in `pid`'s environment, or undefined. */
function markerOf(pid: number): string | undefined {
  const environ = readProcFile(`/proc/${pid}/environ`);
  if (environ === undefined) return undefined;
  const prefix = `${RUN_MARKER}=`;
  return environ
    .split('\0')
    .find((entry) => entry.startsWith(prefix))
    ?.slice(prefix.length);
}

import { constants } from 'node:os';
import { listProcIds, readProcRow } from './proc-table.js';

/** A signal as an abort reason may name it: `SIGUSR1`, or its number. */
export type SignalSpec = NodeJS.Signals | number;

/** True when `value` names a signal this platform knows (a name from os.constants or a positive integer). */
export function isSignalSpec(value: unknown): value is SignalSpec {
  if (typeof value === 'string') return Object.hasOwn(constants.signals, value);
  return typeof value === 'number' && Number.isInteger(value) && value > 0 && value < 65;
}

/** Sends `signal` to every process in group `pgid`. False when the group no longer exists. */
export function signalGroup(pgid: number, signal: SignalSpec): boolean {
  try {
    process.kill(-pgid, signal);
    return true;
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ESRCH') return false;
    throw error;
  }
}

/**
 * Pids of the living (non-zombie) members of group `pgid`, read from /proc. `kill(-pgid, 0)`
 * cannot answer this: a zombie whose parent never reaps it (PID 1 in many containers) still
 * counts, so a reaped group would look alive forever.
 */
export function liveGroupMembers(pgid: number): number[] {
  // No process in the group at all, not even a zombie: the usual case once a run's leader was
  // reaped, answered without reading every /proc/<pid>/stat (~1.4 ms with 67 processes).
  if (!groupHasAnyProcess(pgid)) return [];
  // No listing (no /proc, where this process at least would be listed): the group's id is all we know.
  const pids = listProcIds();
  if (pids.length === 0) return signalGroup(pgid, 0) ? [pgid] : [];
  const members: number[] = [];
  for (const pid of pids) {
    const row = readProcRow(pid);
    if (row?.pgrp === pgid && !row.zombie) members.push(pid);
  }
  return members;
}

/** False only when `kill(-pgid, 0)` says no such group (ESRCH); a group we may not signal still exists. */
export function groupHasAnyProcess(pgid: number): boolean {
  try {
    process.kill(-pgid, 0);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code !== 'ESRCH';
  }
}

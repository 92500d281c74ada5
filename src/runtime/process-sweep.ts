import { setTimeout as sleep } from 'node:timers/promises';
import { groupHasAnyProcess } from './process-group.js';
import {
  lastAllocatedPid,
  readProcFile,
  readProcRow,
  readProcTable,
  type PidRange,
  type ProcRow,
} from './proc-table.js';
import { RUN_MARKER } from './run-marker.js';

/** How often a sweep looks again for living targets while it waits. */
const POLL_MS = 20;
/** How long SIGKILL is given to take effect before a target is reported as a survivor. */
const KILL_SETTLE_MS = 2000;

/** What belongs to one run (or task, or thread): the groups it reported, and its marker. */
export interface SweepTarget {
  readonly groups: Iterable<number>;
  /** The `PLURNK_EXECS_RUN` value its children carry; absent ⇒ groups (and their descendants) only. */
  readonly marker?: string;
  /**
   * When it began (epoch ms): a process started earlier cannot carry its marker, so its
   * environment is not read — reading every process's costs milliseconds on the host's main
   * thread, and a sweep runs at the end of every run that started a process.
   */
  readonly since?: number;
  /**
   * The first process the run started (its first reported group): every process it started
   * since, and their descendants, got a later pid. A sweep within {@link PID_WINDOW_MS} of
   * `since` reads only the rows of pids from it up to the last one the kernel allocated, not
   * every process's (a full read cost ~7 ms per `sh` run here, under load) — unless the counter
   * wrapped past it meanwhile (the last pid is below it), when it reads them all.
   */
  readonly firstPid?: number;
}

/**
 * How long after a run's start its pids stay a window: to wrap around and pass the run's first
 * pid again, the kernel would have to allocate pid_max pids (32768 at least) in that time.
 */
const PID_WINDOW_MS = 1000;

/** Linux's USER_HZ: the unit of /proc/<pid>/stat's start time on every mainstream architecture. */
const TICKS_PER_SECOND = 100;
/** Slack for the tick granularity and the clocks' disagreement. */
const SINCE_SLACK_MS = 5000;

/**
 * Living processes of `target`: the members of its groups, every process carrying its marker
 * and the members of those processes' groups, and every descendant of any of them (a child
 * that left its group with `setsid` but whose parent is still one of them). Never this process,
 * its group, or one of its ancestors. Zombies do not count: PID 1 here does not reap orphans.
 */
export function findRunProcesses(target: SweepTarget): number[] {
  // Most runs report no group and are not swept for a marker: nothing to read, not even our own row.
  if (target.marker === undefined && isEmpty(target.groups)) return [];
  const self = readProcRow(process.pid);
  const groups = new Set([...target.groups].filter((pgid) => pgid > 1 && pgid !== self?.pgrp && pgid !== process.pid));
  // The usual case — no group has a process and no marker to look for — reads no table.
  if (target.marker === undefined && ![...groups].some(groupHasAnyProcess)) return [];
  const table = readProcTable(pidWindow(target));
  const needle = target.marker === undefined ? undefined : `\0${RUN_MARKER}=${target.marker}\0`;
  const sinceTicks = ticksAfterBoot(target.since);
  const found = new Set<number>();
  for (const row of table.values()) {
    if (row.zombie || row.pid === process.pid) continue;
    if (groups.has(row.pgrp)) found.add(row.pid);
    else if (
      needle !== undefined &&
      row.startTicks >= sinceTicks &&
      `\0${readProcFile(`/proc/${row.pid}/environ`) ?? ''}`.includes(needle)
    ) {
      found.add(row.pid);
      if (row.pgrp > 1 && row.pgrp !== self?.pgrp) groups.add(row.pgrp);
    }
  }
  // Members of the marked processes' groups (found after the marker scan), then descendants.
  for (const row of table.values())
    if (!row.zombie && groups.has(row.pgrp) && row.pid !== process.pid) found.add(row.pid);
  const children = new Map<number, number[]>();
  for (const row of table.values()) children.set(row.ppid, [...(children.get(row.ppid) ?? []), row.pid]);
  const queue = [...found];
  while (queue.length > 0) {
    for (const child of children.get(queue.pop()!) ?? []) {
      if (found.has(child) || child === process.pid || table.get(child)?.zombie !== false) continue;
      found.add(child);
      queue.push(child);
    }
  }
  for (const ancestor of ancestorsOfThisProcess(table)) found.delete(ancestor);
  return [...found];
}

/**
 * Kills everything {@link findRunProcesses} finds: SIGHUP to each process (and each reported
 * group), SIGKILL to whatever still lives `graceMs` later, looking again each time so a
 * process forked meanwhile is caught too. A signal that fails (the process is gone, or not
 * ours to signal) is skipped and the sweep goes on. Resolves with how many processes it found
 * at first and the pids that survived even SIGKILL (normally none).
 */
export async function sweepRunProcesses(
  target: SweepTarget,
  graceMs: number,
): Promise<{ found: number; survivors: number[] }> {
  const first = findRunProcesses(target);
  if (first.length === 0) return { found: 0, survivors: [] };
  signalAll(first, 'SIGHUP');
  let alive = await waitForExit(target, graceMs);
  signalAll(alive, 'SIGKILL');
  alive = await waitForExit(target, KILL_SETTLE_MS, true);
  return { found: first.length, survivors: alive };
}

function signalAll(pids: number[], signal: NodeJS.Signals): void {
  for (const pid of pids) {
    try {
      process.kill(pid, signal);
    } catch {
      // Gone already, or not ours to signal: the sweep goes on.
    }
  }
}

function isEmpty(groups: Iterable<number>): boolean {
  for (const _ of groups) return false;
  return true;
}

/** Polls until nothing of `target` lives or `ms` passed; returns what still lives (SIGKILLed again when `kill`). */
async function waitForExit(target: SweepTarget, ms: number, kill = false): Promise<number[]> {
  const deadline = performance.now() + ms;
  let alive = findRunProcesses(target);
  while (alive.length > 0 && performance.now() < deadline) {
    await sleep(POLL_MS);
    alive = findRunProcesses(target);
    if (kill) signalAll(alive, 'SIGKILL');
  }
  return alive;
}

/** Which pids a sweep of `target` reads: those allocated since its first process, while that is a window ({@link SweepTarget.firstPid}); all otherwise. */
function pidWindow(target: SweepTarget): PidRange | undefined {
  const { firstPid, since } = target;
  if (firstPid === undefined || since === undefined || Date.now() - since > PID_WINDOW_MS) return undefined;
  const last = lastAllocatedPid();
  if (last === undefined || last < firstPid) return undefined;
  return { first: firstPid, last };
}

let bootEpochMs: number | undefined;

/** `since` (epoch ms, less the slack) in clock ticks after boot; 0 (every process) when unknown. */
function ticksAfterBoot(since: number | undefined): number {
  if (since === undefined) return 0;
  bootEpochMs ??= Number(/^btime (\d+)$/m.exec(readProcFile('/proc/stat') ?? '')?.[1] ?? NaN) * 1000;
  const ticks = Math.floor(((since - SINCE_SLACK_MS - bootEpochMs) / 1000) * TICKS_PER_SECOND);
  return Number.isFinite(ticks) && ticks > 0 ? ticks : 0;
}

function ancestorsOfThisProcess(table: Map<number, ProcRow>): number[] {
  const ancestors: number[] = [];
  for (let row = table.get(process.pid); row !== undefined && row.ppid > 0; row = table.get(row.ppid))
    ancestors.push(row.ppid);
  return ancestors;
}

import { existsSync, readdirSync, readFileSync } from 'node:fs';

/** One process as `/proc/<pid>/stat` shows it. */
export interface ProcRow {
  readonly pid: number;
  readonly ppid: number;
  readonly pgrp: number;
  /** Exited and not yet reaped (`Z`), or dead (`X`): nothing to signal, nothing alive to spare. */
  readonly zombie: boolean;
  /** Clock ticks after boot at which it started. */
  readonly startTicks: number;
}

/** The pids from `first` to `last`, both included. */
export interface PidRange {
  readonly first: number;
  readonly last: number;
}

/**
 * Up to this many pids, a range is read pid by pid (a missing one costs an `access`, ~5 µs
 * here) rather than by listing `/proc` (110–390 µs with ~130 processes, more on a busy machine).
 */
const ENUMERATE_AT_MOST = 48;

/**
 * Every process `/proc` lists, by pid (a process that exits while the table is read is left
 * out); empty where `/proc` cannot be read. The host's sweep after a run (process-sweep.ts) and
 * the engine's sweep of its PID namespace (engine/namespace-sweep.ts) both start from it. With
 * `within`, only the rows of the pids in that range are read (each row is a file read).
 */
export function readProcTable(within?: PidRange): Map<number, ProcRow> {
  const table = new Map<number, ProcRow>();
  for (const pid of within === undefined ? listProcIds() : pidsWithin(within)) {
    const row = readProcRow(pid);
    if (row !== undefined) table.set(row.pid, row);
  }
  return table;
}

/**
 * The pids of `range` that `/proc` lists: for a short range each one that exists and is a
 * process, not another thread of one (`/proc/<tid>` exists for every thread; its `Tgid` names
 * its process); else those `/proc` lists.
 */
function pidsWithin({ first, last }: PidRange): number[] {
  if (last - first >= ENUMERATE_AT_MOST) return listProcIds().filter((pid) => pid >= first && pid <= last);
  const pids: number[] = [];
  for (let pid = first; pid <= last; pid++) if (existsSync(`/proc/${pid}`) && isProcess(pid)) pids.push(pid);
  return pids;
}

/** True when `pid` is a process (its thread group's leader) and not another of some process's threads. */
function isProcess(pid: number): boolean {
  return /^Tgid:\s*(\d+)$/m.exec(readProcFile(`/proc/${pid}/status`) ?? '')?.[1] === String(pid);
}

/** The pid of every process `/proc` lists (marked-processes.ts reads their environs); none where it cannot be read. */
export function listProcIds(): number[] {
  try {
    return readdirSync('/proc')
      .filter((entry) => /^\d+$/.test(entry))
      .map(Number);
  } catch {
    return [];
  }
}

/** One process's row, or undefined when it is gone. */
export function readProcRow(pid: number): ProcRow | undefined {
  const text = readProcFile(`/proc/${pid}/stat`);
  return text === undefined ? undefined : parseProcStat(pid, text);
}

/**
 * Process `pid`'s row from the text of its `/proc/<pid>/stat`, or undefined when that text shows
 * a process its parent is reaping: the kernel prints group -1 and parent 0 once a process's
 * signal handlers are released (fs/proc/array.c starts from those values and fills them in only
 * while it can lock them), the last moment before its pid disappears. Such a process is gone: it
 * leads no group and belongs to no one.
 */
export function parseProcStat(pid: number, text: string): ProcRow | undefined {
  // The command name is parenthesised and may hold spaces or parentheses: split after the last ')'.
  const fields = text.slice(text.lastIndexOf(')') + 2).split(' ');
  const state = fields[0] ?? '';
  const pgrp = Number(fields[2]);
  if (!(pgrp >= 0)) return undefined;
  return {
    pid,
    ppid: Number(fields[1]),
    pgrp,
    zombie: state === 'Z' || state === 'X',
    startTicks: Number(fields[19]),
  };
}

/** A file's text, or undefined when it cannot be read (the process is gone, or not ours to read). */
export function readProcFile(path: string): string | undefined {
  try {
    return readFileSync(path, 'utf8');
  } catch {
    return undefined;
  }
}

/**
 * The pid the kernel allocated last in this PID namespace (`/proc/loadavg`'s last field), or
 * undefined where it cannot be read.
 */
export function lastAllocatedPid(): number | undefined {
  const last = Number(readProcFile('/proc/loadavg')?.trim().split(' ').at(-1));
  return Number.isSafeInteger(last) && last > 0 ? last : undefined;
}

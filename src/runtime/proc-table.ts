import { readdirSync, readFileSync } from 'node:fs';

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

/**
 * Every process `/proc` lists, by pid (a process that exits while the table is read is left
 * out); empty where `/proc` cannot be read. The host's sweep after a run (process-sweep.ts) and
 * the engine's sweep of its PID namespace (engine/namespace-sweep.ts) both start from it. With
 * `include`, only the rows of the pids it accepts are read (each row is a file read).
 */
export function readProcTable(include?: (pid: number) => boolean): Map<number, ProcRow> {
  const table = new Map<number, ProcRow>();
  for (const pid of listProcIds()) {
    if (include !== undefined && !include(pid)) continue;
    const row = readProcRow(pid);
    if (row !== undefined) table.set(row.pid, row);
  }
  return table;
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
  if (text === undefined) return undefined;
  // The command name is parenthesised and may hold spaces or parentheses: split after the last ')'.
  const fields = text.slice(text.lastIndexOf(')') + 2).split(' ');
  const state = fields[0] ?? '';
  return {
    pid,
    ppid: Number(fields[1]),
    pgrp: Number(fields[2]),
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

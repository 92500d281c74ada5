import { readdirSync, readFileSync } from 'node:fs';
import { RUN_MARKER } from '../runtime/run-marker.js';

/** What the live runs, calls and threads of the engine own (host/ports/live-claims.ts). */
export interface NamespaceOwners {
  readonly markers: ReadonlySet<string>;
  readonly groups: ReadonlySet<number>;
}

interface Row {
  readonly pid: number;
  readonly ppid: number;
  readonly pgrp: number;
  readonly zombie: boolean;
  readonly startTicks: number;
}

/**
 * Kills every process in the engine's PID namespace that belongs to no live run, call or
 * thread: a `setsid` daemon or double fork of a run that ended, which nobody reported. Called
 * only by an engine that is pid 1 of a namespace of its own (so /proc lists nothing else), at
 * each run's end, whatever else is in flight. Returns how many were signalled. Never throws.
 *
 * Who is spared (a live run's process killed is worse than a leftover kept):
 * - the engine itself;
 * - a process whose `PLURNK_EXECS_RUN` is a live owner's marker (a run's, a probe's or
 *   effect's, or a live thread's own, which its children carry outside tasks);
 * - a process in a group a live owner reported and was granted, or in the group of a spared process;
 * - a descendant of a spared process (a child that cleared its marker, even in a new session);
 * - a child of the engine that still runs the engine's own command line: a thread is starting
 *   it (forked, not yet exec'd), and its marker comes with the exec;
 * - a living process whose environment cannot be read: unknown is not foreign.
 * What vanished between reads is gone, never foreign. The table is read before the owners, so
 * a process in it that a live run started was reported before `owners()` took the queued reports.
 * Everything else that lives is SIGKILLed, once its pid is checked to still name it.
 */
export function sweepNamespace(owners: () => NamespaceOwners): number {
  if (process.pid !== 1) return 0;
  const table = readTable();
  const live = owners();
  const spared = spareLiveOwners(table, live);
  let killed = 0;
  for (const row of table.values()) {
    if (row.zombie || spared.has(row.pid)) continue;
    // A pid that now names another process (or none) is not the one judged.
    if (readRow(row.pid)?.startTicks !== row.startTicks) continue;
    try {
      process.kill(row.pid, 'SIGKILL');
      killed += 1;
    } catch {
      // Gone already.
    }
  }
  return killed;
}

/** The pids the rules above spare, the engine's included. */
function spareLiveOwners(table: Map<number, Row>, live: NamespaceOwners): Set<number> {
  const engine = process.pid;
  const command = read(`/proc/${engine}/cmdline`);
  const roots: number[] = [];
  for (const row of table.values()) {
    if (row.zombie || row.pid === engine) continue;
    if (live.groups.has(row.pgrp)) roots.push(row.pid);
    else if (row.ppid === engine && command !== undefined && read(`/proc/${row.pid}/cmdline`) === command)
      roots.push(row.pid);
    else {
      const marker = markerOf(row.pid);
      if (marker === null || (marker !== undefined && live.markers.has(marker))) roots.push(row.pid);
    }
  }
  const children = new Map<number, number[]>();
  const members = new Map<number, number[]>();
  for (const row of table.values()) {
    if (row.zombie || row.pid === engine) continue;
    addTo(children, row.ppid, row.pid);
    addTo(members, row.pgrp, row.pid);
  }
  // Spared: the roots, their descendants and their groups' members, to a fixed point. The engine's
  // group is never widened (it reads as 0 in its namespace: its leader is `unshare`, outside).
  const spared = new Set<number>([engine]);
  const queue = [...roots];
  for (let pid = queue.pop(); pid !== undefined; pid = queue.pop()) {
    if (spared.has(pid)) continue;
    spared.add(pid);
    const row = table.get(pid)!;
    queue.push(...(children.get(pid) ?? []));
    if (row.pgrp > 1 && row.pgrp !== table.get(engine)?.pgrp) queue.push(...(members.get(row.pgrp) ?? []));
  }
  return spared;
}

function addTo(map: Map<number, number[]>, key: number, pid: number): void {
  const list = map.get(key);
  if (list === undefined) map.set(key, [pid]);
  else list.push(pid);
}

/**
 * The `PLURNK_EXECS_RUN` value in `pid`'s environment; undefined when it has none or is gone
 * (a vanished process is not spared: it is checked again before any signal); null when it lives
 * but its environment cannot be read.
 */
function markerOf(pid: number): string | undefined | null {
  const environ = read(`/proc/${pid}/environ`);
  if (environ === undefined) return readRow(pid)?.zombie === false ? null : undefined;
  const prefix = `${RUN_MARKER}=`;
  for (const entry of environ.split('\0')) if (entry.startsWith(prefix)) return entry.slice(prefix.length);
  return undefined;
}

function readTable(): Map<number, Row> {
  const table = new Map<number, Row>();
  let entries: string[];
  try {
    entries = readdirSync('/proc');
  } catch {
    return table;
  }
  for (const entry of entries) {
    if (!/^\d+$/.test(entry)) continue;
    const row = readRow(Number(entry));
    if (row !== undefined) table.set(row.pid, row);
  }
  return table;
}

function readRow(pid: number): Row | undefined {
  const text = read(`/proc/${pid}/stat`);
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

function read(path: string): string | undefined {
  try {
    return readFileSync(path, 'utf8');
  } catch {
    return undefined;
  }
}

import { readProcFile, readProcRow, readProcTable, type ProcRow } from '../runtime/proc-table.js';
import { RUN_MARKER } from '../runtime/run-marker.js';

/** What the live runs, calls and threads of the engine own (thread-host/ports/live-claims.ts). */
export interface NamespaceOwners {
  readonly markers: ReadonlySet<string>;
  readonly groups: ReadonlySet<number>;
}

/**
 * Kills every process in the engine's PID namespace that belongs to no live run, call or
 * thread: a `setsid` daemon or double fork of a run that ended, which nobody reported; its
 * init (`init`, the engine's parent) then reaps it. Called only by an engine that confirmed it
 * runs under that init in a namespace of its own (namespace-init.ts: so /proc lists nothing
 * else), at each run's end, whatever else is in flight. Returns how many were signalled. Never
 * throws.
 *
 * Who is spared (a live run's process killed is worse than a leftover kept):
 * - the engine itself, and the namespace's init;
 * - a process whose `PLURNK_EXECS_RUN` is a live owner's marker (a run's, a probe's or
 *   effect's, or a live thread's own, which its children carry outside tasks);
 * - a process in a group a live owner reported and was granted, or in the group of a spared process;
 * - a descendant of a spared process (a child that cleared its marker, even in a new session);
 * - a process between programs: a child of the engine that still runs the engine's command
 *   line (a thread is starting it: forked, not yet exec'd; its marker comes with the exec), or
 *   one in the middle of an exec, whose command line and environment both read empty;
 * - a living process whose command line or environment cannot be read: unknown is not foreign.
 * What vanished between reads is gone, never foreign. The table is read before the owners, so
 * a process in it that a live run started was reported before `owners()` took the queued reports.
 * Everything else that lives is SIGKILLed once it is judged foreign a second time, from fresh
 * reads of the same process (its start time unchanged): an exec between two reads of one
 * judgement cannot make a live run's process look foreign twice.
 */
export function sweepNamespace(owners: () => NamespaceOwners, init: number): number {
  const table = readProcTable();
  const live = owners();
  const command = readProcFile(`/proc/${process.pid}/cmdline`);
  const spared = spareLiveOwners(table, init, (row) => judge(row, live, command) !== 'foreign');
  let killed = 0;
  for (const row of table.values()) {
    if (row.zombie || spared.has(row.pid)) continue;
    const now = readProcRow(row.pid);
    // A pid that now names another process (or none) is not the one judged.
    if (now === undefined || now.startTicks !== row.startTicks || judge(now, live, command) !== 'foreign') continue;
    try {
      process.kill(row.pid, 'SIGKILL');
      killed += 1;
    } catch {
      // Gone already.
    }
  }
  return killed;
}

/**
 * The pids the rules above spare, the engine's and its init's included: those `spares` says,
 * their descendants and their groups. The init's descendants are not spared for being its: every
 * orphan of the namespace is its child.
 */
function spareLiveOwners(table: Map<number, ProcRow>, init: number, spares: (row: ProcRow) => boolean): Set<number> {
  const engine = process.pid;
  const roots: number[] = [];
  const children = new Map<number, number[]>();
  const members = new Map<number, number[]>();
  for (const row of table.values()) {
    if (row.zombie || row.pid === engine || row.pid === init) continue;
    if (spares(row)) roots.push(row.pid);
    addTo(children, row.ppid, row.pid);
    addTo(members, row.pgrp, row.pid);
  }
  // To a fixed point. The engine's group is never widened (it reads as 0 in its namespace: its
  // leader is `unshare`, outside, and the init and the engine stay in it).
  const spared = new Set<number>([engine, init]);
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

/**
 * One living process by itself (its group, marker and program, not its relatives): `spared` by a
 * live group or marker, between programs, or unreadable while alive; `gone`; else `foreign`.
 */
function judge(row: ProcRow, live: NamespaceOwners, engineCommand: string | undefined): 'spared' | 'gone' | 'foreign' {
  if (live.groups.has(row.pgrp)) return 'spared';
  const command = readProcFile(`/proc/${row.pid}/cmdline`);
  if (command !== undefined && row.ppid === process.pid && command === engineCommand) return 'spared';
  const environ = readProcFile(`/proc/${row.pid}/environ`);
  if (command === undefined || environ === undefined) return readProcRow(row.pid)?.zombie === false ? 'spared' : 'gone';
  if (command === '' && environ === '') return 'spared';
  const prefix = `${RUN_MARKER}=`;
  for (const entry of environ.split('\0'))
    if (entry.startsWith(prefix)) return live.markers.has(entry.slice(prefix.length)) ? 'spared' : 'foreign';
  return 'foreign';
}

function addTo(map: Map<number, number[]>, key: number, pid: number): void {
  const list = map.get(key);
  if (list === undefined) map.set(key, [pid]);
  else list.push(pid);
}

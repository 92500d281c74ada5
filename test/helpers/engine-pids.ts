import { readdirSync, readFileSync } from 'node:fs';
import { setTimeout as sleep } from 'node:timers/promises';
import type { Host } from '../../src/host/index.js';

/** Parent pid of `pid` from /proc, or undefined when it is gone. */
function parentOf(pid: number): number | undefined {
  try {
    return Number(/^PPid:\s*(\d+)/m.exec(readFileSync(`/proc/${pid}/status`, 'utf8'))?.[1]);
  } catch {
    return undefined;
  }
}

function commandOf(pid: number): string {
  try {
    return readFileSync(`/proc/${pid}/cmdline`, 'utf8').split('\0').join(' ');
  } catch {
    return '';
  }
}

/**
 * The engine processes this test process started, as seen from outside their namespaces:
 * `unshare` (a child of this process), the namespace's init (unshare's child, whatever its
 * program) and `node … engine-entry.js`, the engine — the init's child, or this process's own
 * where no namespace can be had. A process the engine forked that has not yet exec'd its
 * program has the engine's command line too; it is neither, since its parent is the engine.
 */
export function enginePids(): { engine: number[]; init: number[]; all: number[] } {
  const engine: number[] = [];
  const init: number[] = [];
  const all: number[] = [];
  const unshares = new Set<number>();
  const parents = new Map<number, number | undefined>();
  for (const entry of readdirSync('/proc')) {
    const pid = Number(entry);
    if (!Number.isInteger(pid) || pid <= 1) continue;
    const parent = parentOf(pid);
    parents.set(pid, parent);
    if (parent === process.pid && commandOf(pid).startsWith('unshare')) unshares.add(pid);
  }
  for (const [pid, parent] of parents) {
    if (unshares.has(pid)) all.push(pid);
    else if (parent !== undefined && unshares.has(parent)) {
      init.push(pid);
      all.push(pid);
    } else if (commandOf(pid).includes('engine-entry.js')) {
      const grandparent = parent === undefined ? undefined : parents.get(parent);
      if (parent === process.pid || (grandparent !== undefined && unshares.has(grandparent))) {
        engine.push(pid);
        all.push(pid);
      }
    }
  }
  return { engine, init, all };
}

/** The pid of `pid` inside its own PID namespace (the last entry of its `NSpid`), or undefined when it is gone. */
export function namespacePid(pid: number): number | undefined {
  try {
    const line = /^NSpid:\s*(.+)$/m.exec(readFileSync(`/proc/${pid}/status`, 'utf8'))?.[1];
    return line === undefined ? undefined : Number(line.trim().split(/\s+/).at(-1));
  } catch {
    return undefined;
  }
}

/** How many zombies the namespaces of this process's engines hold: their processes in Z state, as this /proc shows them. */
export function engineZombies(): number {
  const inside = new Set(enginePids().init);
  const states = new Map<number, { ppid: number; state: string }>();
  for (const entry of readdirSync('/proc')) {
    const pid = Number(entry);
    if (!Number.isInteger(pid)) continue;
    try {
      const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
      const [state = '', ppid = '0'] = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
      states.set(pid, { ppid: Number(ppid), state });
    } catch {
      // Gone while the table was read.
    }
  }
  // Every process of a namespace descends from its init: grow the set to a fixed point.
  for (let grew = true; grew;) {
    grew = false;
    for (const [pid, row] of states)
      if (!inside.has(pid) && inside.has(row.ppid)) {
        inside.add(pid);
        grew = true;
      }
  }
  return [...inside].filter((pid) => states.get(pid)?.state === 'Z').length;
}

/**
 * The pid of the engine that runs `packageName` in `host`, as the host reports it
 * (`isolation().engines`), waiting up to 20 s for one being restarted (its pid is null until it
 * booted); rejects when none comes.
 */
export async function engineOf(host: Pick<Host, 'isolation'>, packageName: string): Promise<number> {
  for (const until = Date.now() + 20_000; Date.now() < until; await sleep(20)) {
    const pid = host.isolation().engines?.find((entry) => entry.packages.includes(packageName))?.pid;
    if (pid != null) return pid;
  }
  throw new Error(`no engine holding ${packageName} booted within 20 s`);
}

import { readFileSync } from 'node:fs';
import { setTimeout as sleep } from 'node:timers/promises';
import { liveGroupMembers, signalGroup } from '../../runtime/process-group.js';

/** How often a reap looks again for living members while it waits. */
const POLL_MS = 20;
/** How long SIGKILL is given to take effect before a group is reported as a survivor. */
const KILL_SETTLE_MS = 2000;

/**
 * Kills every group in `pgids` that still has a living member: SIGHUP first, SIGKILL to
 * whatever is still alive `graceMs` later. Resolves with the groups that survived even
 * SIGKILL (normally none). Zombies count as gone: PID 1 here does not reap orphans, so a
 * killed member can stay a zombie forever. The host's own group is never signalled, whatever
 * a leaf reported.
 */
export async function reapGroups(pgids: Iterable<number>, graceMs: number): Promise<number[]> {
  const own = ownProcessGroup();
  let alive = [...new Set(pgids)].filter(
    (pgid) => pgid > 1 && pgid !== own && pgid !== process.pid && liveGroupMembers(pgid).length > 0,
  );
  if (alive.length === 0) return [];
  for (const pgid of alive) signalGroup(pgid, 'SIGHUP');
  alive = await waitForExit(alive, graceMs);
  for (const pgid of alive) signalGroup(pgid, 'SIGKILL');
  return waitForExit(alive, KILL_SETTLE_MS);
}

/** How many living (non-zombie) processes are in `pgids`: what a reap is about to kill. */
export function countLiveProcesses(pgids: Iterable<number>): number {
  let count = 0;
  for (const pgid of new Set(pgids)) if (pgid > 1) count += liveGroupMembers(pgid).length;
  return count;
}

/** Polls until every group is gone or `ms` passed; returns those still alive. */
async function waitForExit(pgids: number[], ms: number): Promise<number[]> {
  const deadline = performance.now() + ms;
  let alive = pgids;
  while (alive.length > 0 && performance.now() < deadline) {
    await sleep(POLL_MS);
    alive = alive.filter((pgid) => liveGroupMembers(pgid).length > 0);
  }
  return alive;
}

let ownGroup: number | undefined;

/** This process's group id, from /proc/self/stat (0 when unreadable). */
function ownProcessGroup(): number {
  if (ownGroup !== undefined) return ownGroup;
  try {
    const stat = readFileSync('/proc/self/stat', 'utf8');
    ownGroup = Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[2]);
  } catch {
    ownGroup = 0;
  }
  return ownGroup;
}

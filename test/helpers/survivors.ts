import { readFileSync } from 'node:fs';
import { findMarkedProcesses, type MarkedProcess } from '../../src/runtime/marked-processes.js';
import { liveGroupMembers } from '../../src/runtime/process-group.js';

/** Where a test looks for leftovers: a process group id, or the `ZOO_RUN` marker a run's env carried. */
export type Where = number | { marker: string };

/**
 * Living (non-zombie) processes in a group, or carrying a run's marker wherever they went
 * (another group, a new session): the host's own /proc readers, so a test sees what the host
 * sees. Zombies are left out because PID 1 here does not reap orphans.
 */
export function survivors(where: Where): MarkedProcess[] {
  if (typeof where !== 'number') return findMarkedProcesses('ZOO_RUN', where.marker);
  return liveGroupMembers(where).map((pid) => ({ pid, command: commandOf(pid) }));
}

/**
 * Waits until nothing survives in any of `wheres`, polling /proc (a reap or a SIGKILL takes
 * effect asynchronously). Resolves with what is still alive when `withinMs` ran out (empty on
 * success), so a test asserts on what survived rather than on how long it took.
 */
export async function survivorsAfter(wheres: Where[], withinMs = 5000): Promise<MarkedProcess[]> {
  const deadline = Date.now() + withinMs;
  for (;;) {
    const alive = wheres.flatMap((where) => survivors(where));
    if (alive.length === 0 || Date.now() >= deadline) return alive;
    await new Promise((resolve) => setTimeout(resolve, 25));
  }
}

function commandOf(pid: number): string {
  try {
    return readFileSync(`/proc/${pid}/cmdline`, 'utf8').split('\0').filter(Boolean).join(' ');
  } catch {
    return '';
  }
}

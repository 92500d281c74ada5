import { readdirSync, readFileSync } from 'node:fs';

/**
 * Kills every live process in the engine's PID namespace but the engine itself: called only
 * by an engine that is pid 1 of a namespace of its own (so /proc lists nothing else) and only
 * when no run is in flight, so whatever is left — a `setsid` daemon, a double fork nobody
 * reported — belongs to no live run. Returns how many were signalled. Never throws.
 */
export function sweepNamespace(): number {
  if (process.pid !== 1) return 0;
  let killed = 0;
  let entries: string[];
  try {
    entries = readdirSync('/proc');
  } catch {
    return 0;
  }
  for (const entry of entries) {
    const pid = Number(entry);
    if (!Number.isInteger(pid) || pid <= 1) continue;
    if (isZombie(pid)) continue;
    try {
      process.kill(pid, 'SIGKILL');
      killed += 1;
    } catch {
      // Gone already.
    }
  }
  return killed;
}

/** A zombie has exited already: its entry stays until its parent (the engine) waits, which Node never does for orphans. */
function isZombie(pid: number): boolean {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    return stat.slice(stat.lastIndexOf(')') + 2).startsWith('Z');
  } catch {
    return true;
  }
}

import { readFileSync } from 'node:fs';
import { PlurnkExecsError } from '../contracts/errors.js';

/**
 * Stops a leaf from signalling the process it shares with the host: `process.kill` to this
 * process, to its process group (0 or minus its id), or to every process the user owns (-1)
 * reports the attempt with `report` and throws a `forbidden` error in the leaf. A thread is not
 * a process: without this one call from a leaf could end the host and every run in it. Other
 * pids pass through unchanged. A child process can still send such signals; see docs/faults.md.
 */
export function guardProcessKill(report: (message: string) => void): void {
  const kill = process.kill.bind(process);
  const own = new Set([0, -1, process.pid, -process.pid, -ownProcessGroup()]);
  process.kill = ((pid: number, signal?: string | number) => {
    if (own.has(Number(pid))) {
      const message = `process.kill(${pid}): a leaf may not signal the host process, its process group, or every process (§executor-forbidden)`;
      report(message);
      throw new PlurnkExecsError('forbidden', message);
    }
    return kill(pid, signal);
  }) as typeof process.kill;
}

/** This process's group id from /proc/self/stat (0 when unreadable, which the set has anyway). */
function ownProcessGroup(): number {
  try {
    const stat = readFileSync('/proc/self/stat', 'utf8');
    return Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[2]);
  } catch {
    return 0;
  }
}

import { readdirSync, readFileSync } from 'node:fs';

/** A living process found by the marker in its environment. */
export interface MarkedProcess {
  readonly pid: number;
  /** Its command line, spaces between arguments. */
  readonly command: string;
}

/**
 * Living (non-zombie) processes whose environment holds `name=value`, read from /proc. Every
 * process a run starts inherits the run's environment, so a marker there finds them wherever
 * they went — another process group, a new session after `setsid`, reparented to PID 1 — where
 * process-group reaping cannot follow. Processes of other users are unreadable and skipped.
 */
export function findMarkedProcesses(name: string, value: string): MarkedProcess[] {
  const needle = `\0${name}=${value}\0`;
  const found: MarkedProcess[] = [];
  let entries: string[];
  try {
    entries = readdirSync('/proc');
  } catch {
    return found;
  }
  for (const entry of entries) {
    if (!/^\d+$/.test(entry) || Number(entry) === process.pid) continue;
    const environ = read(`/proc/${entry}/environ`);
    if (environ === undefined || !`\0${environ}`.includes(needle) || isZombie(entry)) continue;
    found.push({
      pid: Number(entry),
      command: (read(`/proc/${entry}/cmdline`) ?? '').split('\0').filter(Boolean).join(' '),
    });
  }
  return found;
}

/** Sends SIGKILL to each process; those already gone are skipped. */
export function killProcesses(processes: readonly MarkedProcess[]): void {
  for (const { pid } of processes) {
    try {
      process.kill(pid, 'SIGKILL');
    } catch {
      // Gone already, or not ours to kill.
    }
  }
}

function isZombie(pid: string): boolean {
  const stat = read(`/proc/${pid}/stat`) ?? '';
  const state = stat.slice(stat.lastIndexOf(')') + 2).split(' ')[0];
  return state === 'Z' || state === 'X' || stat === '';
}

function read(path: string): string | undefined {
  try {
    return readFileSync(path, 'utf8');
  } catch {
    return undefined;
  }
}

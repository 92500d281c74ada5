import { listProcIds, readProcFile, readProcRow } from './proc-table.js';

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
  for (const pid of listProcIds()) {
    if (pid === process.pid) continue;
    const environ = readProcFile(`/proc/${pid}/environ`);
    if (environ === undefined || !`\0${environ}`.includes(needle)) continue;
    // Gone, exited or dead since its environ was read: nothing alive to report.
    if (readProcRow(pid)?.zombie !== false) continue;
    found.push({ pid, command: (readProcFile(`/proc/${pid}/cmdline`) ?? '').split('\0').filter(Boolean).join(' ') });
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

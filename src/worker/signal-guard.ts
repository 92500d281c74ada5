import { describeArgument, HOST_PID, lockProperty, readProcStat, type Refuse } from './guard-kit.js';
import type { OwnProcesses } from './own-processes.js';

/**
 * Lets a leaf signal its own processes and nothing else (see own-processes.ts for what "own"
 * means). A thread is not a process: without this one call from a leaf could end the host and
 * every run in it, or another run's children. Both routes are guarded — `process.kill` and the
 * binding it calls, `process._kill` — and each coerces the pid exactly once, so a pid object
 * whose `valueOf` answers differently on its second call cannot pass the check as one number
 * and reach the kernel as another. Both are locked in place. A child process can still send
 * any signal it likes; see docs/faults.md.
 */
export function guardSignals(own: OwnProcesses, refuse: Refuse): void {
  const hostGroup = readProcStat(HOST_PID)?.pgrp ?? 0;
  const rawKill = (process as unknown as { _kill: (pid: number, signal: number) => number })._kill.bind(process);
  const publicKill = process.kill.bind(process);
  const check = (route: string, pid: number) => {
    if (own.mayTarget(pid)) return;
    refuse(
      `${route}(${pid}): ${whose(pid, hostGroup)}; a leaf may signal only processes in groups its own run started, or that carry its run's marker (§executor-forbidden)`,
    );
  };
  function _kill(pid: unknown, signal: unknown): number {
    const target = +(pid as number);
    const number = +(signal as number);
    if (target !== (target | 0) || number !== (number | 0))
      refuse(`process._kill(${describeArgument(pid)}): not a pid`);
    check('process._kill', target);
    return rawKill(target, number);
  }
  function kill(pid: unknown, signal?: unknown): true {
    // One coercion: from here on only the primitive travels.
    const target = typeof pid === 'string' ? (pid.trim() === '' ? NaN : +pid) : +(pid as number);
    const sig =
      signal === undefined || typeof signal === 'number' || typeof signal === 'string' ? signal : String(signal);
    if (target === (target | 0)) check('process.kill', target);
    // Node's own kill validates the rest and calls process._kill, the guarded one, with the same primitives.
    return publicKill(target, sig as NodeJS.Signals | number);
  }
  lockProperty(process, '_kill', _kill);
  lockProperty(process, 'kill', kill);
}

function whose(pid: number, hostGroup: number): string {
  if (pid === HOST_PID) return 'that is the host process';
  if (pid === 0 || pid === -HOST_PID || (hostGroup > 1 && pid === -hostGroup))
    return 'that is the host’s process group';
  if (pid === -1) return 'that is every process the user owns';
  return pid < 0 ? `group ${-pid} is not one this run started` : `process ${pid} is not one of this run’s`;
}

import { execFileSync } from 'node:child_process';

/**
 * Living (non-zombie) members of process group `pgid`, as `ps` sees them: `STAT PID` lines.
 * Zombies are left out because PID 1 here does not reap orphans, so a killed process can stay
 * a zombie forever while `kill -0` still answers for it.
 */
export function survivors(pgid: number): string[] {
  const table = execFileSync('ps', ['-e', '-o', 'stat=,pid=,pgid='], { encoding: 'utf8' });
  return table
    .split('\n')
    .map((line) => line.trim().split(/\s+/))
    .filter(([stat, , group]) => stat !== undefined && group === String(pgid) && !stat.startsWith('Z'))
    .map(([stat, pid]) => `${stat} ${pid}`);
}

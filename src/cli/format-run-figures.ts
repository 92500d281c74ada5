/**
 * What one run of an example did, as one compact line for `plurnk-execs check`'s table
 * (`--json` has every figure of every run): wall time, the thread's and its processes' peak
 * memory, processes started and left, files created/changed/removed, console bytes, sink
 * messages and bytes, violations, and what the engine's sandbox refused, if anything. `-` is a
 * figure the platform or the run did not give.
 */
import type { RunFigures } from '../check/check-report.js';

/** `14 ms · thread 9.8 MiB · children 3.1 MiB · processes 1 started, 0 left · files +2 ~0 -0 · console 0 B · sinks 1 msg 24 B · violations 0`. */
export function formatRunFigures(figures: RunFigures): string {
  const { processes, files, sinks } = figures;
  const left =
    processes.escaped > 0 ? `${processes.left} left (${processes.escaped} escaped)` : `${processes.left} left`;
  const violations = Object.entries(figures.violations);
  const total = violations.reduce((sum, [, count]) => sum + (count ?? 0), 0);
  return [
    `${figures.wallMs} ms`,
    `thread ${bytes(figures.memory.threadPeakBytes)}`,
    `children ${bytes(figures.memory.childrenPeakBytes)}`,
    `processes ${processes.started ?? '-'} started, ${left}`,
    files === null ? 'files -' : `files +${files.created} ~${files.changed} -${files.removed}`,
    `console ${figures.consoleBytes} B`,
    `sinks ${sinks.messages} msg ${sinks.bytes} B`,
    total === 0
      ? 'violations 0'
      : `violations ${total} (${violations.map(([kind, count]) => `${kind} ${count}`).join(', ')})`,
    ...refusals(figures.sandbox),
  ].join(' · ');
}

/** What the engine's sandbox refused, when it refused anything: `sandbox refused 12 forks, 1 OOM kill`. */
function refusals(sandbox: RunFigures['sandbox']): string[] {
  if (sandbox === null || sandbox.forksRefused + sandbox.oomKills === 0) return [];
  const forks = `${sandbox.forksRefused} fork${sandbox.forksRefused === 1 ? '' : 's'}`;
  const kills = `${sandbox.oomKills} OOM kill${sandbox.oomKills === 1 ? '' : 's'}`;
  return [`sandbox refused ${forks}, ${kills}`];
}

function bytes(value: number | null): string {
  if (value === null) return '-';
  if (value < 1024 * 1024) return `${Math.round(value / 1024)} KiB`;
  return `${(value / (1024 * 1024)).toFixed(1)} MiB`;
}

import { setTimeout as sleep } from 'node:timers/promises';
import { bootHost } from '../../host/boot-host.js';
import type { Host } from '../../model/host-types.js';
import { single, target, type BenchContext, type BenchRow, type ScenarioReport } from '../bench-report.js';
import { discoverFixtures } from '../bench-leaves.js';
import { reportProgress } from '../stats-progress.js';

/** Idle time before the burst: the spare has long warmed, nothing else is running. */
const IDLE_MS = 2000;

/**
 * Scenario 9 (issue 17): 200 no-op EXECs in flight at once under the default `'each-run'`,
 * where every run needs a thread of its own and thread starts pass the admission queue — the
 * share that settled with the leaf's own result (none may be a host deadline's 500; a run the
 * queue held past its bound is 503 `host-overloaded`), and the runs/s of the burst. The burst of
 * 12 after idle is a row of the `load` scenario, in both tiers.
 */
export async function benchBurst(context: BenchContext): Promise<ScenarioReport> {
  const discovery = await discoverFixtures('exec-noop');
  const rows: BenchRow[] = [];
  const notes: string[] = [];
  const fresh = await bootHost(discovery, { recycle: 'each-run' });
  try {
    const inFlight = context.quick ? 50 : 200;
    context.progress(`burst: ${inFlight} EXECs in flight at once`);
    await sleep(IDLE_MS);
    const start = performance.now();
    const stopProgress = reportProgress(fresh, 'burst', inFlight, context.progress);
    const outs = await Promise.all(Array.from({ length: inFlight }, () => timed(fresh))).finally(stopProgress);
    const seconds = (performance.now() - start) / 1000;
    const share = outs.filter((out) => out.outcome === 'ok').length / inFlight;
    rows.push({
      name: `${inFlight} EXECs in flight, 'each-run': share settled with the leaf's own result`,
      unit: 'share',
      subject: single(share),
      target: target(share, '>=', 1, 'subject'),
    });
    rows.push({
      name: `${inFlight} EXECs in flight, 'each-run': runs/s`,
      unit: 'runs/s',
      subject: single(inFlight / seconds),
    });
    const other = countOthers(outs);
    if (other !== '') notes.push(`Outcomes other than ok in the burst of ${inFlight}: ${other}.`);
  } finally {
    await fresh.close();
  }
  notes.push(
    "Thread tier whatever --isolation says (the queue is the thread host's): each burst run gets a thread no run used before; thread starts pass the admission queue (admission.threadStarts, default one per core).",
  );
  return { name: 'burst', rows, notes };
}

/** One no-op EXEC: its latency and how it ended (`outcome`, status and code when not ok). */
async function timed(host: Host): Promise<{ ms: number; outcome: string }> {
  const start = performance.now();
  const out = await host.exec({ runtime: 'noop', body: 'x' });
  const code = out.result.problem?.type?.split('/').at(-1);
  const outcome = out.outcome === 'ok' ? 'ok' : `${out.outcome} ${out.result.status}${code ? ` ${code}` : ''}`;
  return { ms: performance.now() - start, outcome };
}

function countOthers(outs: readonly { outcome: string }[]): string {
  const counts = new Map<string, number>();
  for (const { outcome } of outs) if (outcome !== 'ok') counts.set(outcome, (counts.get(outcome) ?? 0) + 1);
  return [...counts].map(([outcome, count]) => `${count} × ${outcome}`).join(', ');
}

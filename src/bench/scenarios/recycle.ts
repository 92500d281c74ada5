import { bootBenchHost } from '../boot-bench-host.js';
import type { Host, RecyclePolicy } from '../../host/host-types.js';
import { summarize, target, type BenchContext, type BenchRow, type ScenarioReport } from '../bench-report.js';
import { discoverFixtures } from '../bench-leaves.js';
import { sampleInterleaved, toMicros } from '../sample.js';

/** Idle time before each latency sample: long enough for a spare to start, load and warm up on a busy 2-core machine. */
const GAP_MS = 500;

/**
 * Scenario 5. The latency of a no-op run in the thread that replaced a retired one
 * (`'each-run'`, after an idle gap so the spare had time to warm) against a run in a warm
 * reused thread (`'never'`, same gap). Then runs per second of one tag, back to back, under
 * `'each-run'`, `{ afterRuns: 100 }` and `'never'`.
 */
export async function benchRecycle(context: BenchContext): Promise<ScenarioReport> {
  const discovery = await discoverFixtures('exec-noop');
  const rows: BenchRow[] = [];
  {
    const fresh = await bootBenchHost(context, discovery, { recycle: 'each-run' });
    const warm = await bootBenchHost(context, discovery, { recycle: 'never' });
    try {
      const plan = context.quick
        ? { rounds: 2, perRound: 5, warmup: 2, gapMs: GAP_MS }
        : { rounds: 10, perRound: 5, warmup: 3, gapMs: GAP_MS };
      context.progress(
        `recycle: ${plan.rounds * plan.perRound} runs after a recycle and as many warm, ${GAP_MS} ms apart`,
      );
      const samples = await sampleInterleaved({ fresh: () => execNoop(fresh), warm: () => execNoop(warm) }, plan);
      const subject = summarize(toMicros(samples.fresh));
      const baseline = summarize(toMicros(samples.warm));
      const ratio = subject.median / baseline.median;
      rows.push({
        name: `next run after a recycle ('each-run', spare warmed ${GAP_MS} ms)`,
        unit: 'µs',
        subject,
        baseline: { name: "warm run ('never')", stat: baseline },
        ratio,
        target: target(ratio, '<=', 1.1),
      });
    } finally {
      await Promise.all([fresh.close(), warm.close()]);
    }
  }

  const policies: [string, RecyclePolicy][] = [
    ['never', 'never'],
    ['{ afterRuns: 100 }', { afterRuns: 100 }],
    ["'each-run'", 'each-run'],
  ];
  const windowMs = context.quick ? 1000 : 4000;
  const rounds = context.quick ? 1 : 3;
  const rates = new Map<string, number[]>(policies.map(([label]) => [label, []]));
  for (let round = 0; round < rounds; round++) {
    for (const [label, recycle] of policies) {
      context.progress(`recycle: runs/s under ${label}, round ${round + 1}/${rounds}`);
      const host = await bootBenchHost(context, discovery, { recycle });
      try {
        rates.get(label)!.push(await runsPerSecond(host, windowMs));
      } finally {
        await host.close();
      }
    }
  }
  const never = summarize(rates.get('never')!);
  for (const [label] of policies) {
    const stat = summarize(rates.get(label)!);
    rows.push({
      name: `runs/s back to back, ${label}`,
      unit: 'runs/s',
      subject: stat,
      baseline: { name: "'never'", stat: never },
      ratio: stat.median / never.median,
    });
  }
  return {
    name: 'recycle',
    rows,
    notes: [
      `Runs/s: one caller issuing no-op runs one after another for ${windowMs / 1000} s per round; ${rounds} round(s) per policy.`,
    ],
  };
}

async function execNoop(host: Host): Promise<void> {
  const outcome = await host.exec({ runtime: 'noop', body: 'x' });
  if (outcome.result.status !== 200)
    throw new Error(`recycle: the no-op run failed: ${JSON.stringify(outcome.result)}`);
}

async function runsPerSecond(host: Host, windowMs: number): Promise<number> {
  for (let i = 0; i < 3; i++) await execNoop(host);
  let runs = 0;
  const start = performance.now();
  while (performance.now() - start < windowMs) {
    await execNoop(host);
    runs += 1;
  }
  return runs / ((performance.now() - start) / 1000);
}

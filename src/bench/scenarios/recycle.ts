import { bootBenchHost } from '../boot-bench-host.js';
import type { Host, RecyclePolicy } from '../../model/host-types.js';
import { summarize, target, type BenchContext, type BenchRow, type ScenarioReport } from '../bench-report.js';
import { discoverFixtures } from '../bench-leaves.js';
import { sampleInterleaved, toMicros } from '../sample.js';
import { timeBareWorker, timeExecutorThread } from '../thread-start.js';

/** Idle time before each latency sample: long enough for a spare to start, load and warm up on a busy 2-core machine. */
const GAP_MS = 500;

/**
 * Scenario 5. The latency of a no-op run in the thread that replaced a retired one
 * (`'each-run'`, after an idle gap so the spare had time to warm) against a run in a warm
 * reused thread (`'never'`, same gap). Then one executor thread's start (what every
 * `'each-run'` run consumes) against a bare worker's; then runs per second of one tag, back to
 * back, under `'each-run'`, `{ afterRuns: 100 }` and `'never'`.
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

  {
    const entry = [...discovery.registry.values()][0]!;
    const boot = { tag: entry.runtime, glyph: entry.glyph, entryUrl: entry.entryUrl };
    const rounds = context.quick ? 2 : 10;
    const starts = { executor: [] as number[], bare: [] as number[] };
    context.progress(`recycle: ${rounds * 2} executor thread starts and as many bare workers, alternating`);
    await timeExecutorThread(boot);
    await timeBareWorker();
    for (let round = 0; round < rounds; round++) {
      for (let i = 0; i < 2; i++) starts.executor.push(await timeExecutorThread(boot));
      for (let i = 0; i < 2; i++) starts.bare.push(await timeBareWorker());
    }
    const subject = summarize(starts.executor);
    const baseline = summarize(starts.bare);
    rows.push({
      name: "a thread's start: new executor thread (no-op leaf) until warm",
      unit: 'ms',
      subject,
      baseline: { name: 'bare worker posting once', stat: baseline },
      ratio: subject.median / baseline.median,
    });
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

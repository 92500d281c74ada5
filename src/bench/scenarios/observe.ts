import { subscribe, unsubscribe } from 'node:diagnostics_channel';
import { bootHost, bootProcessHost, bootUnobservedHost } from '../../host/boot-host.js';
import type { Host } from '../../model/host-types.js';
import { OBSERVE_CHANNELS } from '../../model/observe/observe-events.js';
import { summarize, target, type BenchContext, type BenchRow, type ScenarioReport } from '../bench-report.js';
import { discoverFixtures } from '../bench-leaves.js';
import { sampleInterleaved, toMicros } from '../sample.js';

const NOOP = { runtime: 'noop', body: 'x' } as const;

/**
 * Issue 27: what observing costs an EXEC. A no-op EXEC through a warm thread (`'never'`) on a
 * host as shipped — counting every run for `host.stats()`, tracing when someone subscribed —
 * against the same EXEC on a host whose front door observes nothing (as before issue 27), the
 * two interleaved, in both tiers: first with no subscriber (the cost every service pays), then
 * with a no-op subscriber on every channel. And what one `host.stats()` call costs.
 */
export async function benchObserve(context: BenchContext): Promise<ScenarioReport> {
  const discovery = await discoverFixtures('exec-noop');
  const options = { recycle: 'never' } as const;
  const plan = context.quick ? { rounds: 3, perRound: 100, warmup: 100 } : { rounds: 10, perRound: 300, warmup: 300 };
  const rows: BenchRow[] = [];
  for (const tier of ['thread', 'process'] as const) {
    const observed = tier === 'thread' ? await bootHost(discovery, options) : await bootProcessHost(discovery, options);
    const unobserved = await bootUnobservedHost(discovery, options, tier);
    try {
      context.progress(
        `observe (${tier}): ${plan.rounds} rounds × ${plan.perRound} no-op EXECs per arm, no subscriber`,
      );
      rows.push(await execRow(tier, 'no subscriber', observed, unobserved, plan, 1.05));
      context.progress(`observe (${tier}): the same, every channel subscribed`);
      const stop = subscribeAll();
      try {
        rows.push(await execRow(tier, 'every channel subscribed (no-op subscribers)', observed, unobserved, plan));
      } finally {
        stop();
      }
      const samples = await sampleInterleaved(
        { stats: () => observed.stats(), exec: () => observed.exec(NOOP) },
        { ...plan, perRound: Math.ceil(plan.perRound / 3) },
      );
      const stats = summarize(toMicros(samples.stats));
      const exec = summarize(toMicros(samples.exec));
      rows.push({
        name: `${tier}: one host.stats() call`,
        unit: 'µs',
        subject: stats,
        baseline: { name: 'one no-op EXEC', stat: exec },
        ratio: stats.median / exec.median,
      });
    } finally {
      await Promise.all([observed.close(), unobserved.close()]);
    }
  }
  return {
    name: 'observe',
    rows,
    notes: [
      'Baseline: a host whose front door observes nothing (no counts, no traces), as before issue 27, booted over the same fixture in the same run; the arms alternate round by round. Target: a no-op EXEC with no subscriber costs the same (ratio ≤ 1.05).',
      'host.stats() in the process tier is one round trip to the engine, which counts its threads and breaker.',
    ],
  };
}

async function execRow(
  tier: 'thread' | 'process',
  subscribers: string,
  observed: Host,
  unobserved: Host,
  plan: { rounds: number; perRound: number; warmup: number },
  bound?: number,
): Promise<BenchRow> {
  const samples = await sampleInterleaved(
    { unobserved: () => unobserved.exec(NOOP), observed: () => observed.exec(NOOP) },
    plan,
  );
  const subject = summarize(toMicros(samples.observed));
  const baseline = summarize(toMicros(samples.unobserved));
  const ratio = subject.median / baseline.median;
  return {
    name: `${tier}: host.exec() no-op (warm thread), observed, ${subscribers}`,
    unit: 'µs',
    subject,
    baseline: { name: 'unobserved front door', stat: baseline },
    ratio,
    ...(bound === undefined ? {} : { target: target(ratio, '<=', bound) }),
  };
}

/** A no-op subscriber on every channel the host publishes on (the tracing ones' five each); returns the unsubscribe. */
function subscribeAll(): () => void {
  const ignore = () => {};
  const names = Object.values(OBSERVE_CHANNELS).flatMap((name) =>
    name === OBSERVE_CHANNELS.exec || name === OBSERVE_CHANNELS.effect
      ? ['start', 'end', 'asyncStart', 'asyncEnd', 'error'].map((event) => `tracing:${name}:${event}`)
      : [name],
  );
  for (const name of names) subscribe(name, ignore);
  return () => {
    for (const name of names) unsubscribe(name, ignore);
  };
}

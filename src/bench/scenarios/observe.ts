import { subscribe, unsubscribe } from 'node:diagnostics_channel';
import { bootHost, bootProcessHost, bootUnobservedHost } from '../../host/boot-host.js';
import { HostObserver } from '../../host/observe/host-observer.js';
import type { ParsedExecRequest } from '../../model/exec-request.js';
import type { ExecOutcome, Host } from '../../model/host-types.js';
import { OBSERVE_CHANNELS } from '../../model/observe/observe-events.js';
import { summarize, target, type BenchContext, type BenchRow, type ScenarioReport } from '../bench-report.js';
import { discoverFixtures } from '../bench-leaves.js';
import { sampleInterleaved, toMicros } from '../sample.js';

const NOOP = { runtime: 'noop', body: 'x' } as const;
/** Calls per sample of the front door's observing alone: one call is well under a microsecond. */
const BATCH = 1000;

/**
 * Issue 27: what observing costs an EXEC. A no-op EXEC through a warm thread (`'never'`) on a
 * host as shipped — counting every run for `host.stats()`, tracing when someone subscribed —
 * against the same EXEC on a host whose front door observes nothing (as before issue 27), the
 * two interleaved, in both tiers: first with no subscriber (the cost every service pays), then
 * with a no-op subscriber on every channel. And what one `host.stats()` call costs, and what
 * the front door's observing adds to one EXEC alone, over a run already settled (no thread, so
 * a neighbour's load hardly moves it), as a share of a no-op EXEC.
 */
export async function benchObserve(context: BenchContext): Promise<ScenarioReport> {
  const discovery = await discoverFixtures('exec-noop');
  const options = { recycle: 'never' } as const;
  // Many short rounds: on a shared machine a neighbour's burst then falls on both arms alike.
  const plan = context.quick ? { rounds: 6, perRound: 50, warmup: 100 } : { rounds: 30, perRound: 100, warmup: 300 };
  const rows: BenchRow[] = [];
  let unobservedExec = 0;
  for (const tier of ['thread', 'process'] as const) {
    const observed = tier === 'thread' ? await bootHost(discovery, options) : await bootProcessHost(discovery, options);
    const unobserved = await bootUnobservedHost(discovery, options, tier);
    try {
      context.progress(
        `observe (${tier}): ${plan.rounds} rounds × ${plan.perRound} no-op EXECs per arm, no subscriber`,
      );
      const quiet = await execRow(tier, 'no subscriber', observed, unobserved, plan, 1.05);
      rows.push(quiet);
      if (tier === 'thread') unobservedExec = quiet.baseline!.stat.median;
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
  rows.push(await observerRow(context, unobservedExec));
  return {
    name: 'observe',
    rows,
    notes: [
      'Baseline: a host whose front door observes nothing (no counts, no traces), as before issue 27, booted over the same fixture in the same run; the arms alternate round by round. Target: a no-op EXEC with no subscriber costs the same (ratio ≤ 1.05).',
      'host.stats() in the process tier is one round trip to the engine, which counts its threads and breaker.',
      "The last row times the front door's observing with no thread under it, so a neighbour's load hardly moves it: what it adds to one EXEC, as a share of a no-op EXEC.",
    ],
  };
}

/** The front door's observing of one EXEC (count, histograms, the `then`), no subscriber, over a settled run. */
async function observerRow(context: BenchContext, execMicros: number): Promise<BenchRow> {
  const observer = new HostObserver(['noop']);
  const request: ParsedExecRequest = {
    ...NOOP,
    target: null,
    cwd: null,
    env: undefined,
    signal: undefined,
    timeoutMs: undefined,
    address: undefined,
    sinks: undefined,
    effect: undefined,
  };
  const outcome: ExecOutcome = {
    outcome: 'ok',
    result: { status: 200 },
    effect: 'pure',
    address: null,
    channels: {},
    notices: [],
    violations: [],
  };
  const run = () => Promise.resolve(outcome);
  const samples = await sampleInterleaved(
    {
      bare: async () => {
        for (let i = 0; i < BATCH; i++) await run();
      },
      observed: async () => {
        for (let i = 0; i < BATCH; i++) await observer.exec(request, run);
      },
    },
    { rounds: context.quick ? 5 : 20, perRound: 10, warmup: 20 },
  );
  const perCall = (ms: number[]) => ms.map((batch) => (batch * 1000) / BATCH);
  const observed = summarize(perCall(samples.observed));
  const bare = summarize(perCall(samples.bare));
  const share = (observed.median - bare.median) / execMicros;
  return {
    name: "the front door's observing alone, per EXEC (no subscriber, a settled run)",
    unit: 'µs',
    subject: observed,
    baseline: { name: 'the bare call', stat: bare },
    ratio: share,
    ratioOf: '(observed − bare) ÷ the unobserved no-op EXEC of the thread tier',
    target: target(share, '<=', 0.05),
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

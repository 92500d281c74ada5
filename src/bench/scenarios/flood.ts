import { setTimeout as sleep } from 'node:timers/promises';
import { bootHost, bootProcessHost } from '../../host/boot-host.js';
import type { Host } from '../../model/host-types.js';
import { summarize, target, type BenchContext, type BenchRow, type ScenarioReport } from '../bench-report.js';
import { discoverFixtures } from '../bench-leaves.js';

/** How long the flood runs before the other tag's run starts beside it. */
const HEAD_START_MS = 30;

/**
 * Scenario 7. What a tag flooding its sink port costs another tag, in both tiers: a no-op EXEC
 * of one tag alone, against the same EXEC started while another tag's run posts one-character
 * writes as fast as it can (`count`x1, under the per-run message budget), in alternating
 * rounds. Every sink message is applied on a main thread (the host's, and in the process tier
 * the engine's and the service's), each channel taking a bounded share of each turn of its loop
 * (thread-host/ports/thread-port.ts); the ratio says how much the flood still delays the other
 * tag (issue 28: at most 2×).
 */
export async function benchFlood(context: BenchContext): Promise<ScenarioReport> {
  const discovery = await discoverFixtures('exec-noop', 'exec-streams');
  const count = context.quick ? 200_000 : 900_000;
  const plan = context.quick ? { rounds: 3, perRound: 2 } : { rounds: 8, perRound: 3 };
  const rows: BenchRow[] = [];
  const notes: string[] = [];
  for (const tier of ['thread', 'process'] as const) {
    const host = await (tier === 'thread' ? bootHost : bootProcessHost)(discovery, { recycle: 'never' });
    const alone: number[] = [];
    const beside: number[] = [];
    // How long each flood ran, and how many measured EXECs ended after it (they measured no flood).
    const floods: number[] = [];
    let outlived = 0;
    try {
      await timeNoop(host);
      context.progress(
        `flood (${tier}): no-op EXEC alone and beside ${count} one-character writes, ${plan.rounds} rounds`,
      );
      for (let round = 0; round < plan.rounds; round++) {
        for (let i = 0; i < plan.perRound; i++) alone.push(await timeNoop(host));
        for (let i = 0; i < plan.perRound; i++) {
          const started = performance.now();
          let floodEnded = Infinity;
          const flood = host.exec({ runtime: 'streams', body: `${count}x1` }).finally(() => {
            floodEnded = performance.now();
          });
          await sleep(HEAD_START_MS);
          beside.push(await timeNoop(host));
          if (floodEnded !== Infinity) outlived += 1;
          const outcome = await flood;
          floods.push(floodEnded - started);
          if (outcome.result.status !== 200)
            throw new Error(`flood: the flood run failed: ${JSON.stringify(outcome.result)}`);
        }
      }
    } finally {
      await host.close();
    }
    notes.push(
      `${tier} tier: a flood ran ${summarize(floods).median.toFixed(0)} ms (median); ${outlived} of ${beside.length} EXECs beside it ended after it.`,
    );
    const baseline = summarize(alone);
    const subject = summarize(beside);
    const ratio = subject.median / baseline.median;
    rows.push({
      name: `${tier === 'thread' ? 'thread tier' : 'process tier'}: no-op EXEC beside another tag's flood (${count} × 1-char writes)`,
      unit: 'ms',
      subject,
      baseline: { name: 'the same EXEC alone', stat: baseline },
      ratio,
      ratioOf: 'beside ÷ alone',
      target: target(ratio, '<=', 2),
    });
  }
  return {
    name: 'flood',
    rows,
    notes: [
      `The other tag's run starts ${HEAD_START_MS} ms into the flood; both EXECs call effect() (no effect passed).`,
      ...notes,
    ],
  };
}

async function timeNoop(host: Host): Promise<number> {
  const started = performance.now();
  const outcome = await host.exec({ runtime: 'noop', body: 'x' });
  if (outcome.result.status !== 200) throw new Error(`flood: the no-op run failed: ${JSON.stringify(outcome.result)}`);
  return performance.now() - started;
}

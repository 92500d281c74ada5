import { setTimeout as sleep } from 'node:timers/promises';
import { bootBenchHost } from '../boot-bench-host.js';
import type { Host } from '../../model/host-types.js';
import { summarize, type BenchContext, type ScenarioReport } from '../bench-report.js';
import { discoverFixtures } from '../bench-leaves.js';

/** How long the flood runs before the other tag's run starts beside it. */
const HEAD_START_MS = 30;

/**
 * Scenario 7. What a tag flooding its sink port costs another tag: a no-op EXEC of one tag
 * alone, against the same EXEC started while another tag's run posts one-character writes as
 * fast as it can (`count`x1, under the per-run message budget), in alternating rounds. Every
 * sink message is applied on the host's main thread, so the flood delays the other run; the
 * ratio says by how much, and the message budget (limits.sinkMessages) bounds how long.
 */
export async function benchFlood(context: BenchContext): Promise<ScenarioReport> {
  const host = await bootBenchHost(context, await discoverFixtures('exec-noop', 'exec-streams'), { recycle: 'never' });
  const count = context.quick ? 200_000 : 900_000;
  const plan = context.quick ? { rounds: 3, perRound: 2 } : { rounds: 8, perRound: 3 };
  const alone: number[] = [];
  const beside: number[] = [];
  try {
    await timeNoop(host);
    context.progress(`flood: no-op EXEC alone and beside ${count} one-character writes, ${plan.rounds} rounds`);
    for (let round = 0; round < plan.rounds; round++) {
      for (let i = 0; i < plan.perRound; i++) alone.push(await timeNoop(host));
      for (let i = 0; i < plan.perRound; i++) {
        const flood = host.exec({ runtime: 'streams', body: `${count}x1` });
        await sleep(HEAD_START_MS);
        beside.push(await timeNoop(host));
        const outcome = await flood;
        if (outcome.result.status !== 200)
          throw new Error(`flood: the flood run failed: ${JSON.stringify(outcome.result)}`);
      }
    }
    const baseline = summarize(alone);
    const subject = summarize(beside);
    return {
      name: 'flood',
      rows: [
        {
          name: `no-op EXEC beside another tag's flood (${count} × 1-char writes)`,
          unit: 'ms',
          subject,
          baseline: { name: 'the same EXEC alone', stat: baseline },
          ratio: subject.median / baseline.median,
          ratioOf: 'beside ÷ alone',
        },
      ],
      notes: [
        `The other tag's run starts ${HEAD_START_MS} ms into the flood. No target yet: the message budget bounds the flood's length, not its share of the main thread.`,
      ],
    };
  } finally {
    await host.close();
  }
}

async function timeNoop(host: Host): Promise<number> {
  const started = performance.now();
  const outcome = await host.exec({ runtime: 'noop', body: 'x' });
  if (outcome.result.status !== 200) throw new Error(`flood: the no-op run failed: ${JSON.stringify(outcome.result)}`);
  return performance.now() - started;
}

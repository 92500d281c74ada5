import { setTimeout as sleep } from 'node:timers/promises';
import { bootHost, bootProcessHost } from '../../host/boot-host.js';
import type { Host } from '../../model/host-types.js';
import { summarize, target, type BenchContext, type BenchRow, type ScenarioReport } from '../bench-report.js';
import { discoverFixtures } from '../bench-leaves.js';

/** How long the flood runs before the other tag's runs start beside it. */
const HEAD_START_MS = 30;
/** No-op EXECs one after another in each measured group, alone or beside one flood. */
const GROUP = 3;

/**
 * Scenario 7. What a tag flooding its sink port costs another tag, in both tiers: a few no-op
 * EXECs of one tag back to back alone, against as many started while another tag's run posts
 * one-character writes as fast as it can (`count`x1, under the per-run message budget), in
 * alternating rounds. Every sink message is applied on a main thread (the host's, and in the
 * process tier the engine's and the service's), each channel taking a bounded share of each turn
 * of its loop (thread-host/ports/thread-port.ts); the ratio says how much the flood still delays
 * the other tag (issue 28: at most 2×).
 *
 * Both sides are the same shape, {@link GROUP} EXECs one after another, the first of them after
 * the tag's thread sat idle {@link HEAD_START_MS} ms (quiet, or the flood's head start). On
 * this machine a thread woken after a few ms idle answers several times slower than one kept
 * busy (a bare port round trip: 24 µs back to back, ~90 µs after 30 ms idle), so timing only the
 * first EXEC beside the flood against EXECs back to back alone measured that idle as the flood's
 * cost. The notes give the first EXECs' own medians.
 */
export async function benchFlood(context: BenchContext): Promise<ScenarioReport> {
  const discovery = await discoverFixtures('exec-noop', 'exec-streams');
  const count = context.quick ? 200_000 : 900_000;
  // Floods, each beside a group and after one alone.
  const floodCount = context.quick ? 6 : 24;
  const rows: BenchRow[] = [];
  const notes: string[] = [];
  for (const tier of ['thread', 'process'] as const) {
    const host = await (tier === 'thread' ? bootHost : bootProcessHost)(discovery, { recycle: 'never' });
    const alone: number[] = [];
    const beside: number[] = [];
    // The first EXEC of each group, after its thread sat idle.
    const firstAlone: number[] = [];
    const firstBeside: number[] = [];
    // How long each flood ran, and how many groups beside it ended after it (they measured no flood).
    const floods: number[] = [];
    let outlived = 0;
    try {
      await timeNoop(host);
      context.progress(
        `flood (${tier}): ${GROUP} no-op EXECs alone, then beside ${count} one-character writes, ${floodCount} times`,
      );
      for (let i = 0; i < floodCount; i++) {
        await sleep(HEAD_START_MS);
        const quiet = await timeGroup(host);
        alone.push(...quiet);
        firstAlone.push(quiet[0]!);
        const started = performance.now();
        let floodEnded = Infinity;
        const flood = host.exec({ runtime: 'streams', body: `${count}x1` }).finally(() => {
          floodEnded = performance.now();
        });
        await sleep(HEAD_START_MS);
        const flooded = await timeGroup(host);
        beside.push(...flooded);
        firstBeside.push(flooded[0]!);
        if (floodEnded !== Infinity) outlived += 1;
        const outcome = await flood;
        floods.push(floodEnded - started);
        if (outcome.result.status !== 200)
          throw new Error(`flood: the flood run failed: ${JSON.stringify(outcome.result)}`);
      }
    } finally {
      await host.close();
    }
    notes.push(
      `${tier} tier: a flood ran ${summarize(floods).median.toFixed(0)} ms (median); ${outlived} of ${floods.length} groups beside it ended after it. The first EXEC of a group, after its thread sat idle: ${summarize(firstAlone).median.toFixed(2)} ms alone, ${summarize(firstBeside).median.toFixed(2)} ms beside.`,
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
      `Each group is ${GROUP} no-op EXECs one after another, alone or started ${HEAD_START_MS} ms into one flood; every EXEC calls effect() (no effect passed).`,
      ...notes,
    ],
  };
}

/** {@link GROUP} no-op EXECs one after another: each one's time. */
async function timeGroup(host: Host): Promise<number[]> {
  const times: number[] = [];
  for (let i = 0; i < GROUP; i++) times.push(await timeNoop(host));
  return times;
}

async function timeNoop(host: Host): Promise<number> {
  const started = performance.now();
  const outcome = await host.exec({ runtime: 'noop', body: 'x' });
  if (outcome.result.status !== 200) throw new Error(`flood: the no-op run failed: ${JSON.stringify(outcome.result)}`);
  return performance.now() - started;
}

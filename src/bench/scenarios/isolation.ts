import { bootHost, bootProcessHost } from '../../host/boot-host.js';
import type { Host } from '../../model/host-types.js';
import { single, summarize, type BenchContext, type BenchRow, type ScenarioReport } from '../bench-report.js';
import { discoverFixtures } from '../bench-leaves.js';
import { sampleInterleaved, toMicros } from '../sample.js';

const MB = 1024 * 1024;

/**
 * Scenario 7. What the process tier costs against the thread tier, both measured in the same
 * run over the same fixtures: boot, a no-op EXEC through a warm thread, and sink throughput
 * (64 KiB writes), the two tiers interleaved round by round. Each figure's ratio is process ÷
 * thread (throughput: thread ÷ process, so above 1 is always a cost).
 */
export async function benchIsolation(context: BenchContext): Promise<ScenarioReport> {
  const discovery = await discoverFixtures('exec-noop', 'exec-streams');
  const options = { recycle: 'never', limits: { outputBytes: 64 * MB } } as const;
  let started = performance.now();
  const thread = await bootHost(discovery, options);
  const threadBootMs = performance.now() - started;
  started = performance.now();
  const engine = await bootProcessHost(discovery, options);
  const processBootMs = performance.now() - started;
  const execPlan = context.quick
    ? { rounds: 3, perRound: 100, warmup: 100 }
    : { rounds: 10, perRound: 300, warmup: 300 };
  const streamPlan = context.quick ? { rounds: 3, perRound: 2, warmup: 1 } : { rounds: 8, perRound: 3, warmup: 2 };
  const count = context.quick ? 128 : 512;
  try {
    context.progress(`isolation: ${execPlan.rounds} rounds × ${execPlan.perRound} no-op EXECs per tier`);
    const exec = await sampleInterleaved(
      {
        thread: () => thread.exec({ runtime: 'noop', body: 'x' }),
        process: () => engine.exec({ runtime: 'noop', body: 'x' }),
      },
      execPlan,
    );
    context.progress(`isolation: ${streamPlan.rounds} rounds of ${count} × 64 KiB writes per tier`);
    const megabytes = (count * 65536) / MB;
    const stream = await sampleInterleaved(
      { thread: () => streamThrough(thread, count), process: () => streamThrough(engine, count) },
      streamPlan,
    );
    const threadExec = summarize(toMicros(exec.thread));
    const processExec = summarize(toMicros(exec.process));
    const threadRate = summarize(stream.thread.map((ms) => megabytes / (ms / 1000)));
    const processRate = summarize(stream.process.map((ms) => megabytes / (ms / 1000)));
    const rows: BenchRow[] = [
      {
        name: 'boot (2 fixture tags)',
        unit: 'ms',
        subject: single(processBootMs),
        baseline: { name: 'thread tier', stat: single(threadBootMs) },
        ratio: processBootMs / threadBootMs,
      },
      {
        name: 'host.exec() no-op (warm thread)',
        unit: 'µs',
        subject: processExec,
        baseline: { name: 'thread tier', stat: threadExec },
        ratio: processExec.median / threadExec.median,
      },
      {
        name: `sink, ${count} × 64 KiB writes`,
        unit: 'MB/s',
        subject: processRate,
        baseline: { name: 'thread tier', stat: threadRate },
        ratio: threadRate.median / processRate.median,
        ratioOf: 'thread MB/s ÷ process MB/s',
      },
    ];
    const contained = engine.isolation();
    return {
      name: 'isolation',
      rows,
      notes: [
        `Subject: the process tier (PID namespace ${contained.pidNamespace ? 'yes' : 'no'}, permission model ${contained.permissionModel ? 'yes' : 'no'}); baseline: the thread tier, same run.`,
      ],
    };
  } finally {
    await Promise.all([thread.close(), engine.close()]);
  }
}

async function streamThrough(host: Host, count: number): Promise<void> {
  const outcome = await host.exec({ runtime: 'streams', body: `${count}x65536` });
  if (outcome.channels.out?.text.length !== count * 65536)
    throw new Error(`isolation: the run lost output: ${JSON.stringify(outcome.result)}`);
}

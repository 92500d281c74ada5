import { bootHost, bootProcessHost } from '../../host/boot-host.js';
import type { Host } from '../../model/host-types.js';
import { summarize, target, type BenchContext, type BenchRow, type ScenarioReport } from '../bench-report.js';
import { discoverFixtures } from '../bench-leaves.js';
import { startIpcPeer } from '../ipc-peer.js';
import { startPortPeer } from '../port-peer.js';
import { sampleInterleaved } from '../sample.js';

const MB = 1024 * 1024;

/**
 * Scenario 3. Sink throughput: a leaf writes `count` chunks of `size` characters in one loop
 * through `args.write` (a warm thread, `recycle: 'never'`, every chunk kept in the run's
 * stream), against a plain worker posting the same chunks one `postMessage` each on a bare
 * MessagePort to a receiver that keeps them, in the same rounds.
 */
export async function benchStream(context: BenchContext): Promise<ScenarioReport> {
  // 512 × 64 KiB is 32 MiB: above the default per-run output cap (16 MiB), which would end the run.
  const discovery = await discoverFixtures('exec-streams');
  const options = { recycle: 'never', limits: { outputBytes: 64 * 1024 * 1024 } } as const;
  const host = await bootHost(discovery, options);
  const engine = await bootProcessHost(discovery, options);
  const peer = await startPortPeer();
  const ipc = await startIpcPeer();
  const cases = context.quick
    ? [
        { label: '64 KiB', count: 128, size: 65536 },
        { label: '16 B', count: 20_000, size: 16 },
      ]
    : [
        { label: '64 KiB', count: 512, size: 65536 },
        { label: '16 B', count: 100_000, size: 16 },
      ];
  const plan = context.quick ? { rounds: 3, perRound: 2, warmup: 1 } : { rounds: 8, perRound: 3, warmup: 2 };
  const rows: BenchRow[] = [];
  try {
    for (const { label, count, size } of cases) {
      context.progress(`stream: ${count} × ${label} writes, ${plan.rounds} rounds`);
      const megabytes = (count * size) / MB;
      const samples = await sampleInterleaved(
        {
          raw: async () => expectChars(await peer.stream(count, size), count * size),
          sink: () => streamThroughHost(host, count, size),
          rawIpc: async () => expectChars(await ipc.stream(count, size), count * size),
          processSink: () => streamThroughHost(engine, count, size),
        },
        plan,
      );
      const raw = summarize(samples.raw.map((ms) => megabytes / (ms / 1000)));
      const sink = summarize(samples.sink.map((ms) => megabytes / (ms / 1000)));
      const ratio = sink.median / raw.median;
      rows.push({
        name: `sink, ${label} writes (${count} × ${size} chars)`,
        unit: 'MB/s',
        subject: sink,
        baseline: { name: 'raw postMessage per chunk', stat: raw },
        ratio,
        target: target(ratio, '>=', 0.8),
      });
      const rawIpc = summarize(samples.rawIpc.map((ms) => megabytes / (ms / 1000)));
      const processSink = summarize(samples.processSink.map((ms) => megabytes / (ms / 1000)));
      const processRatio = processSink.median / rawIpc.median;
      rows.push({
        name: `process tier: sink, ${label} writes (${count} × ${size} chars)`,
        unit: 'MB/s',
        subject: processSink,
        baseline: { name: 'raw IPC message per chunk', stat: rawIpc },
        ratio: processRatio,
        target: target(processRatio, '>=', 0.8),
      });
    }
    return {
      name: 'stream',
      rows,
      notes: ['Host figures include the EXEC round trip (effect() and run dispatch) around the writes.'],
    };
  } finally {
    await Promise.all([host.close(), engine.close(), peer.close(), ipc.close()]);
  }
}

async function streamThroughHost(host: Host, count: number, size: number): Promise<void> {
  const outcome = await host.exec({ runtime: 'streams', body: `${count}x${size}` });
  if (outcome.result.status !== 200) throw new Error(`stream: the run failed: ${JSON.stringify(outcome.result)}`);
  expectChars(outcome.channels.out?.text.length ?? 0, count * size);
}

/** A throughput figure over lost output would be a lie: fail loudly instead. */
function expectChars(received: number, expected: number): void {
  if (received !== expected) throw new Error(`stream: received ${received} characters, expected ${expected}`);
}

import { execFile } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { single, summarize, target, type BenchContext, type BenchRow, type ScenarioReport } from '../bench-report.js';
import type { MemoryAnswer, MemoryRequest } from '../memory-child.js';

const run = promisify(execFile);
const CHILD = fileURLToPath(new URL('../memory-child.js', import.meta.url));
/** How long idle threads are watched: V8's memory reducer shrinks an idle isolate after 10–25 s here. */
const SETTLE_MS = 30_000;

/**
 * Scenario 6. RSS per idle executor thread (a booted host's loaded spare, one per tag) against
 * a plain idle worker thread, each measured as (RSS after − RSS before) ÷ threads in a fresh
 * process, just after boot and again after the threads sat idle (V8 releases start-up
 * garbage of an idle isolate only after ~8 s); and the host's RSS across many mixed runs,
 * sampled after garbage collection.
 */
export async function benchMemory(context: BenchContext): Promise<ScenarioReport> {
  const threads = context.quick ? 4 : 8;
  const repeats = context.quick ? 1 : 3;
  const settleMs = context.quick ? 12_000 : SETTLE_MS;
  const samples = { host: [] as MemoryAnswer[], bare: [] as MemoryAnswer[] };
  for (let i = 0; i < repeats; i++) {
    context.progress(`memory: ${threads} idle threads, sample ${i + 1}/${repeats} (watched ${settleMs / 1000} s)`);
    // Two processes at once: each measures only its own RSS, and idling is what takes the time.
    const [host, bare] = await Promise.all([
      measureInChild({ mode: 'idle-host', threads, settleMs }),
      measureInChild({ mode: 'idle-bare', threads, settleMs }),
    ]);
    samples.host.push(host);
    samples.bare.push(bare);
  }
  const perThread = (answers: MemoryAnswer[], at: 'afterMb' | 'settledMb') =>
    summarize(answers.map((answer) => (answer[at] - answer.beforeMb) / threads));
  const rows: BenchRow[] = [];
  for (const [at, label] of [
    ['afterMb', 'just booted'],
    ['settledMb', `at rest (lowest in ${settleMs / 1000} s idle)`],
  ] as const) {
    const idle = perThread(samples.host, at);
    const floor = perThread(samples.bare, at);
    rows.push({
      name: `RSS per executor thread, ${label} (${threads} tags)`,
      unit: 'MB',
      subject: idle,
      baseline: { name: 'plain worker thread', stat: floor },
      ratio: idle.median / floor.median,
      ...(at === 'settledMb' ? { target: target(idle.median, '<=', 12, 'subject') } : {}),
    });
  }

  context.progress(`memory: host RSS just after booting every leaf under ${context.cwd}`);
  const booted = await measureInChild({ mode: 'boot-all', cwd: context.cwd });
  const added = booted.afterMb - booted.beforeMb;
  rows.push({
    name: `host RSS added by booting all ${booted.statuses.tags} installed tags (${booted.statuses.available} available)`,
    unit: 'MB',
    subject: single(added),
    baseline: { name: 'RSS before createHost', stat: single(booted.beforeMb) },
    ratio: booted.afterMb / booted.beforeMb,
    target: target(added, '<=', 120, 'subject'),
  });

  const runs = context.quick ? 1000 : 10_000;
  context.progress(`memory: host RSS across ${runs} mixed runs`);
  const mixed = await measureInChild({ mode: 'mixed', runs, every: runs / 10 });
  rows.push({
    name: `host RSS after ${runs} mixed runs`,
    unit: 'MB',
    subject: single(mixed.afterMb),
    baseline: { name: 'after 100 warm-up runs', stat: single(mixed.beforeMb) },
    ratio: mixed.afterMb / mixed.beforeMb,
  });
  const peak = Math.max(...mixed.samplesMb);
  return {
    name: 'memory',
    rows,
    notes: [
      'Thread tier whatever --isolation says: RSS is measured on the one process that holds the threads.',
      `Mixed runs: no-op, 100 × 16 B and 4 × 64 KiB writes, sh 'true', an unknown tag (501), under { afterRuns: 100 }; statuses ${JSON.stringify(mixed.statuses)}.`,
      `RSS every ${runs / 10} runs (MB): ${mixed.samplesMb.map((mb) => mb.toFixed(0)).join(', ')}; peak ${peak.toFixed(0)}.`,
    ],
  };
}

/** Runs one memory measurement in a fresh `--expose-gc` Node process (memory-child.ts). */
export async function measureInChild(request: MemoryRequest): Promise<MemoryAnswer> {
  const { stdout } = await run(process.execPath, ['--expose-gc', CHILD, JSON.stringify(request)], {
    maxBuffer: 16 * 1024 * 1024,
  });
  return JSON.parse(stdout) as MemoryAnswer;
}

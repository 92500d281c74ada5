import { getEventListeners } from 'node:events';
import { randomUUID } from 'node:crypto';
import { join } from 'node:path';
import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';
import { afterEach, describe, expect, it } from 'vitest';
import { createHost, type ExecOutcome, type Host, type HostOptions } from '../../../src/host/index.js';
import { findMarkedProcesses, killProcesses } from '../../../src/runtime/marked-processes.js';

// Issue 17's load tests, with the built-in leaves in the thread tier (createHost's default is
// the process tier, whose engine runs the same thread host): every outcome is asserted, never a timing. A burst that overloads the machine is held in the host's admission queue and
// blamed on no leaf; a long mixed soak leaves no process behind and does not grow the host.
const REPO = join(import.meta.dirname, '..', '..', '..');

/** One EXEC of the mix: the request, and the leaf's own output it must settle with. */
interface Case {
  readonly runtime: string;
  readonly body: string;
  readonly channel: string;
  readonly text: string;
}

const MIX: readonly Case[] = [
  { runtime: 'sh', body: 'echo hi', channel: 'stdout', text: 'hi\n' },
  { runtime: 'jq', body: '[1,2] | add', channel: 'results', text: '3\n' },
  { runtime: 'sqlite', body: 'select 1+1 as n;', channel: 'results', text: '[{"n":2}]' },
  // A child left running in the background: the host must reap it when the run ends.
  { runtime: 'sh', body: 'sleep 60 & echo left', channel: 'stdout', text: 'left\n' },
];

/** Every child a run of this file starts carries this marker (`env` is the exact child environment). */
const MARKER = randomUUID();
const ENV = { PATH: process.env.PATH ?? '/usr/bin:/bin', LOAD_TEST: MARKER };

let host: Host | undefined;
afterEach(async () => {
  await host?.close();
  host = undefined;
  killProcesses(findMarkedProcesses('LOAD_TEST', MARKER));
});

async function boot(options: HostOptions = {}): Promise<Host> {
  host = await createHost({ cwd: REPO, tags: ['sh', 'jq', 'sqlite'], isolation: 'thread', ...options });
  expect(host.availableRuntimes()).toEqual(['jq', 'sh', 'sqlite']);
  return host;
}

const run = (booted: Host, which: Case, signal?: AbortSignal) =>
  booted.exec({
    runtime: which.runtime,
    body: which.body,
    env: ENV,
    timeoutMs: 120_000,
    ...(signal ? { signal } : {}),
  });

/** What an outcome says, in one comparable line: its class, status, and the mix's channel text. */
const summary = (out: ExecOutcome, which: Case) =>
  `${which.runtime} ${out.outcome} ${out.result.status} ${JSON.stringify(out.channels[which.channel]?.text)}${
    out.result.problem ? ` ${out.result.problem.detail ?? ''}` : ''
  }`;
const expected = (which: Case) => `${which.runtime} ok 200 ${JSON.stringify(which.text)}`;

/** The host's resident memory, and its main heap's live objects, after a full collection (MB). */
function settledMemoryMb(): { rss: number; heap: number } {
  setFlagsFromString('--expose-gc');
  (runInNewContext('gc') as () => void)();
  const { rss, heapUsed } = process.memoryUsage();
  return { rss: rss / (1024 * 1024), heap: heapUsed / (1024 * 1024) };
}

/** Runs at which the soak reads the host's memory: every 250th, from the 1,000th, once the host is warm. */
const SAMPLED_FROM = 1000;
const SAMPLE_EVERY = 250;

describe('load', () => {
  it("settles 200 EXECs in flight at once across sh, jq and sqlite with each leaf's own result", async () => {
    // Each of the 200 under 'each-run' starts a thread; on a busy 2-core machine the queue may
    // hold the last ones for minutes, which is the point: they wait, and none is blamed.
    const booted = await boot({ admission: { queueTimeoutMs: 600_000 } });
    const cases = Array.from({ length: 200 }, (_, i) => MIX[i % 3]!);
    const outs = await Promise.all(cases.map((which) => run(booted, which)));
    const wrong = outs.map((out, i) => summary(out, cases[i]!)).filter((line, i) => line !== expected(cases[i]!));
    expect(wrong).toEqual([]);
  }, 900_000);

  it('leaves no process, listener or warning behind and does not grow the host over 3,000 mixed runs at concurrency 16', async () => {
    // Threads are recycled every 25 runs rather than every run: 3,000 thread starts (each-run)
    // take far more than a few minutes on a busy 2-core machine, and 120 retirements still
    // churn threads, ports and process groups through every path a run takes.
    // Spares sized to demand would change how many idle threads the host holds between the
    // baseline and the end (more after the load, until the demand decays): this test measures
    // what each run leaves behind, so it holds the thread count to what the runs themselves use.
    const booted = await boot({ recycle: { afterRuns: 25 }, spares: { max: 0 } });
    // Every run carries the service's one signal, as a service passes it: nothing may pile up on it, or print.
    const shared = new AbortController();
    const warnings: string[] = [];
    const onWarning = (warning: Error) => warnings.push(`${warning.name}: ${warning.message}`);
    process.on('warning', onWarning);
    const total = 3000;
    const wrong: string[] = [];
    let next = 0;
    const samples: { rss: number; heap: number }[] = [];
    const worker = async () => {
      for (let i = next++; i < total; i = next++) {
        const which = MIX[i % MIX.length]!;
        const line = summary(await run(booted, which, shared.signal), which);
        if (line !== expected(which)) wrong.push(line);
        if (i >= SAMPLED_FROM && i % SAMPLE_EVERY === 0) samples.push(settledMemoryMb());
      }
    };
    await Promise.all(Array.from({ length: 16 }, worker)).finally(() => process.off('warning', onWarning));
    expect(wrong.slice(0, 10)).toEqual([]);
    expect(warnings).toEqual([]);
    expect(getEventListeners(shared.signal, 'abort')).toHaveLength(0);
    // Each run's children were reaped before its outcome resolved; a SIGKILL lands asynchronously.
    await expect.poll(() => findMarkedProcesses('LOAD_TEST', MARKER), { timeout: 10_000 }).toEqual([]);
    // The host warms up over its first ~1,000 runs: its RSS then holds a plateau (measured here:
    // ~470–510 MB on Node 26, ±25 MB from sample to sample as threads come and go), its main
    // heap a level (~22 MB, ±1). A leak rises through both halves of the samples that follow.
    samples.push(settledMemoryMb());
    const early = samples.slice(0, 4);
    const late = samples.slice(-4);
    const least = (of: typeof samples, key: 'rss' | 'heap') => Math.min(...of.map((sample) => sample[key]));
    // A closure, a listener or a port kept per run lives in the main heap: 8 KB a run would add
    // ~10 MB between the halves (1,250 runs apart).
    expect(least(late, 'heap') - least(early, 'heap')).toBeLessThan(10);
    // What the heap does not hold (a thread, a native handle) shows in the RSS: 36 KB a run, 45 MB.
    expect(least(late, 'rss') - least(early, 'rss')).toBeLessThan(45);
    await booted.close();
    await expect.poll(() => findMarkedProcesses('LOAD_TEST', MARKER), { timeout: 10_000 }).toEqual([]);
  }, 900_000);
});

import { Worker } from 'node:worker_threads';
import type { WorkerBoot } from '../contracts/protocol.js';
import { resolveHostOptions } from '../model/host-options.js';
import { WorkerHandle } from '../thread-host/threads/worker-handle.js';

/** What a bare worker runs: post once, then stay until terminated (as an executor thread does). */
const BARE = "require('node:worker_threads').parentPort.postMessage(0); setInterval(() => {}, 1 << 30);";

/**
 * Starts one executor thread for `boot` as the host does (a {@link WorkerHandle}: piscina, the
 * worker entry, the guards, the leaf loaded, the warm-up runs) and returns the ms until it was
 * warm, i.e. ready for a run, under a default host's limits. Ending the thread is not timed.
 */
export async function timeExecutorThread(boot: WorkerBoot): Promise<number> {
  const limits = boot.limits ?? resolveHostOptions().limits;
  const start = performance.now();
  const thread = new WorkerHandle({ boot: { ...boot, limits }, env: threadEnv() });
  try {
    await thread.warmUp();
    if (!thread.alive) throw new Error(`bench: the executor thread died while it started: ${thread.deathReason}`);
    return performance.now() - start;
  } finally {
    await thread.terminate();
  }
}

/** A bare worker thread that posts once: ms from `new Worker` to its message. Ending it is not timed. */
export async function timeBareWorker(): Promise<number> {
  const start = performance.now();
  const worker = new Worker(BARE, { eval: true });
  try {
    await new Promise((resolve, reject) => {
      worker.once('message', resolve);
      worker.once('error', reject);
    });
    return performance.now() - start;
  } finally {
    await worker.terminate();
  }
}

function threadEnv(): Record<string, string> {
  return Object.fromEntries(
    Object.entries(process.env).filter((entry): entry is [string, string] => entry[1] !== undefined),
  );
}

/**
 * How many executor threads for `boot` this machine starts per second, `concurrency` at a time,
 * each until warm (as {@link timeExecutorThread}) and then terminated without waiting, as a host
 * retires a used thread off the next one's path: the bound of back-to-back runs under
 * `'each-run'`, where every run consumes a thread. Counts the threads warm within `windowMs`.
 */
export async function threadStartRate(boot: WorkerBoot, concurrency: number, windowMs: number): Promise<number> {
  const limits = boot.limits ?? resolveHostOptions().limits;
  const ending: Promise<void>[] = [];
  let started = 0;
  const start = performance.now();
  const deadline = start + windowMs;
  await Promise.all(
    Array.from({ length: concurrency }, async () => {
      while (performance.now() < deadline) {
        const thread = new WorkerHandle({ boot: { ...boot, limits }, env: threadEnv() });
        await thread.warmUp();
        if (!thread.alive) throw new Error(`bench: the executor thread died while it started: ${thread.deathReason}`);
        started += 1;
        ending.push(thread.terminate());
      }
    }),
  );
  const rate = started / ((performance.now() - start) / 1000);
  await Promise.all(ending);
  return rate;
}

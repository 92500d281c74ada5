import type { MessagePort } from 'node:worker_threads';
import { Piscina } from 'piscina';
import type { Limits } from '../../contracts/limits.js';
import type { ThreadOpen, WorkerBoot } from '../../contracts/protocol.js';
import { describeThrow } from '../../runtime/guard-listener.js';
import { isOutOfMemory } from './out-of-memory.js';
import { workerEntryPath } from '../../runtime/package-root.js';
import { refuseBundle, threadExecArgv } from './thread-bundle.js';

/** What a thread the host starts is booted with: always the host's limits, whole. */
export type HostWorkerBoot = WorkerBoot & { readonly limits: Limits };

/** How to start every thread of one tag. */
export interface WorkerSpec {
  readonly boot: HostWorkerBoot;
  /** The thread's initial `process.env` (see worker-env.ts). */
  readonly env: Record<string, string>;
  /** The leaf package serving the tag: only tags of one package (same entry, same env) share a boot probe thread. */
  readonly packageName?: string;
  /** Told once when the thread dies without the host asking (it exited, ran out of memory, or a leaf error escaped between tasks). */
  readonly onCrash?: (reason: string) => void;
}

/** What one executor thread is started with. */
export interface ThreadStart {
  readonly workerData: HostWorkerBoot;
  readonly env: Record<string, string>;
}

/**
 * A piscina pool of exactly one executor thread, which piscina only starts and ends (tasks
 * travel on the thread's own control channel: task-channel.ts). Started on the bundled start
 * path when it can be had (thread-bundle.ts); when Node refuses the host's flags for a thread,
 * on the modules one by one, and so for every later thread. Throws what `new Piscina` throws.
 */
export function startThreadPool(start: ThreadStart): Piscina<ThreadOpen<MessagePort>, void> {
  try {
    return newPool(start, threadExecArgv());
  } catch (error) {
    if ((error as { code?: unknown }).code !== 'ERR_WORKER_INVALID_EXEC_ARGV') throw error;
    refuseBundle();
    return newPool(start, undefined);
  }
}

function newPool(start: ThreadStart, execArgv: string[] | undefined): Piscina<ThreadOpen<MessagePort>, void> {
  return new Piscina({
    filename: workerEntryPath(),
    minThreads: 1,
    maxThreads: 1,
    idleTimeout: Infinity,
    concurrentTasksPerWorker: 1,
    // Sync atomics freeze an idle thread: its timers, ports and child events stop.
    atomics: 'disabled',
    recordTiming: false,
    workerData: start.workerData,
    env: start.env,
    ...(execArgv ? { execArgv } : {}),
    // Node's own cap on the thread's JS heap; what it holds outside the heap is the guard's (limits.externalMb).
    resourceLimits: { maxOldGenerationSizeMb: start.workerData.limits.heapMb },
  });
}

/** What a thread of a pool died of, from its 'error' event: out of memory, or an error in the thread itself. */
export function describeThreadError(error: unknown): string {
  if (isOutOfMemory(error)) return 'the worker thread ran out of JS heap (limits.heapMb) and died';
  return `the worker thread failed: ${describeThrow(error)}`;
}

import type { Worker } from 'node:worker_threads';
import type { HookBoot, HookReply } from '../contracts/hook-protocol.js';
import { describeThrow } from '../runtime/guard-listener.js';
import { hookEntryPath } from '../runtime/package-root.js';
import { sweepRunProcesses } from '../runtime/process-sweep.js';
import { newRunMarker } from '../runtime/run-marker.js';
import { startThreadWithFlags } from '../runtime/thread-flags.js';

/**
 * A hook thread refuses `require()` of an ES module (ERR_REQUIRE_ESM, as on Node before 20.19).
 * The thread is terminated at its timeout wherever it is, and Node ≥ 20.19 aborts the whole
 * process when that lands while `require()` builds an ES module's facade (docs/design.md, "A
 * thread's start path in one module"): a thread that require()d an ES module in a loop took its
 * process down within 1–38 terminations here. The hook runs in the service's process, so it may not.
 */
const HOOK_FLAGS = ['--no-experimental-require-module'];

/** The hook's reply, or why there is none: it overran `timeoutMs`, or its thread died first. */
export type HookOutcome =
  HookReply | { readonly stage: 'timeout' } | { readonly stage: 'died'; readonly detail: string };

/**
 * Runs one `runtimesModule` hook in a thread of its own and waits at most `timeoutMs` for its
 * answer — thread start included — then terminates the thread whatever happened. A hook that
 * spins, exits or throws at import affects only that thread; every process it started (found
 * by the marker the thread's child_process guard gives each child) is killed before the
 * outcome is returned. Never rejects.
 */
export async function callHookInThread(boot: HookBoot, timeoutMs: number): Promise<HookOutcome> {
  const marker = newRunMarker();
  const since = Date.now();
  const outcome = await new Promise<HookOutcome>((resolve) => {
    let worker: Worker;
    try {
      worker = startThreadWithFlags(hookEntryPath(), { workerData: { ...boot, marker } }, HOOK_FLAGS);
    } catch (error) {
      return resolve({ stage: 'died', detail: `its thread could not start: ${describeThrow(error)}` });
    }
    let settled = false;
    const settle = (outcome: HookOutcome) => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      resolve(outcome);
      void worker.terminate();
    };
    const timer = setTimeout(() => settle({ stage: 'timeout' }), timeoutMs);
    worker.once('message', (reply: HookReply) => settle(reply));
    worker.once('error', (error) => settle({ stage: 'died', detail: `${error.name}: ${error.message}` }));
    worker.once('exit', (code) => settle({ stage: 'died', detail: `its thread exited with code ${code}` }));
  });
  // Whatever the hook started is discovery's to end: every child carries the marker (no grace: a hook's
  // processes have no work to finish). A thread blocked in execSync ends once its child is killed.
  await sweepRunProcesses({ groups: [], marker, since }, 0);
  return outcome;
}

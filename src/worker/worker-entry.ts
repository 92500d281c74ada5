import * as nodeModule from 'node:module';
import { isMainThread, workerData } from 'node:worker_threads';
import type { WorkerBoot } from '../contracts/protocol.js';

// Loaded by piscina inside a thread the host started for one runtime tag; never imported by
// leaves or by the host itself (the host only names this file's path).
if (isMainThread) {
  throw new Error(
    '@plurnk/plurnk-execs: worker-entry.js runs only inside an executor worker thread started by the host',
  );
}

// Every thread compiles this package and its leaf anew. Node ≥ 22.1 can keep V8's code cache on
// disk (os.tmpdir()/node-compile-cache, or NODE_COMPILE_CACHE; NODE_DISABLE_COMPILE_CACHE=1
// turns it off), so later threads skip most of that. It is a speed knob only: where Node has no
// such API, or the cache cannot be used, threads compile as before. Enabled before the task
// handler and the leaf are imported, so both are cached.
(nodeModule as { enableCompileCache?: () => unknown }).enableCompileCache?.();

/** The handler piscina calls for every task posted to this thread (piscina awaits a promised handler). */
export default import('./task-handler.js').then(({ createTaskHandler }) => createTaskHandler(workerData as WorkerBoot));

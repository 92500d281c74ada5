import { isMainThread, workerData } from 'node:worker_threads';
import type { WorkerBoot } from '../contracts/protocol.js';
import { createTaskHandler } from './task-handler.js';

// Loaded by piscina inside a thread the host started for one runtime tag; never imported by
// leaves or by the host itself (the host only names this file's path).
if (isMainThread) {
  throw new Error(
    '@plurnk/plurnk-execs: worker-entry.js runs only inside an executor worker thread started by the host',
  );
}

/** The handler piscina calls for every task posted to this thread. */
export default createTaskHandler(workerData as WorkerBoot);

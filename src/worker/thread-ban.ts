import { createRequire, syncBuiltinESMExports } from 'node:module';
import { PlurnkExecsError } from '../contracts/errors.js';

const require = createRequire(import.meta.url);

/**
 * Stops leaves from starting worker threads of their own. A nested thread escapes what the
 * host holds a leaf to: its heap has no `resourceLimits`, its memory is not in this thread's
 * heartbeat, and its output and process groups are not attributed to the run. `Worker` in
 * `node:worker_threads` is replaced by a class whose constructor reports the attempt with
 * `report` and throws; `syncBuiltinESMExports` carries the replacement to every ESM import,
 * static or dynamic, made afterwards.
 */
export function banWorkerThreads(report: (message: string) => void): void {
  const threads = require('node:worker_threads') as { Worker: unknown };
  threads.Worker = class ForbiddenWorker {
    constructor() {
      const message =
        'new Worker(): an executor leaf runs in a worker thread of its own and may not start more (§executor-forbidden)';
      report(message);
      throw new PlurnkExecsError('forbidden', message);
    }
  };
  syncBuiltinESMExports();
}

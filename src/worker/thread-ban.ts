import { createRequire, syncBuiltinESMExports } from 'node:module';
import { lockProperty, type Refuse } from './guard-kit.js';

const require = createRequire(import.meta.url);

/**
 * Stops leaves from starting worker threads of their own and from talking to other threads.
 * A nested thread escapes what the host holds a leaf to: its heap has no `resourceLimits`,
 * its memory is not in this thread's heartbeat, and its output and process groups are not
 * attributed to the run. A `BroadcastChannel` reaches every thread of the process that opens
 * one of the same name — another tag's idle spare, or a concurrent run of the same tag — so a
 * run's body and env could leak, or two runs could talk. `Worker` and `BroadcastChannel` in
 * `node:worker_threads`, and the global `BroadcastChannel`, become classes whose constructor
 * refuses; `syncBuiltinESMExports` carries the replacements to every ESM import made afterwards.
 */
export function banThreads(refuse: Refuse): void {
  const threads = require('node:worker_threads') as Record<string, unknown>;
  lockProperty(
    threads,
    'Worker',
    class ForbiddenWorker {
      constructor() {
        refuse(
          'new Worker(): an executor leaf runs in a worker thread of its own and may not start more (§executor-forbidden)',
        );
      }
    },
  );
  const ForbiddenBroadcastChannel = class BroadcastChannel {
    constructor(name?: unknown) {
      refuse(
        `new BroadcastChannel(${typeof name === 'string' ? JSON.stringify(name.slice(0, 60)) : typeof name}): a leaf may not talk to other threads — another tag's or another run's (§executor-forbidden)`,
      );
    }
  };
  lockProperty(threads, 'BroadcastChannel', ForbiddenBroadcastChannel);
  lockProperty(globalThis, 'BroadcastChannel', ForbiddenBroadcastChannel);
  syncBuiltinESMExports();
}

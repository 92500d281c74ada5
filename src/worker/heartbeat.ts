import type { MemoryReport, WorkerControlMessage } from '../contracts/protocol.js';
import { SharedTicker } from '../runtime/shared-ticker.js';
import { wasmBytesOutsideExternal } from './wasm-memories.js';

// Captured when this module loads, before any leaf code: a leaf that replaces
// process.memoryUsage (to hide its Buffers) or the timers (to silence its heartbeat) changes
// what it calls, not what the heartbeat reads.
const memoryUsage = process.memoryUsage.bind(process);
const every = setInterval;
const stop = clearInterval;

/** The thread's heartbeat ticker, made at its first task (every task asks the same period). */
let ticker: SharedTicker | undefined;

/**
 * Sends a heartbeat with this thread's memory every `everyMs` until the returned function is
 * called. None goes out at once: `started` is a run's acknowledgement, and a task that ends
 * within `everyMs` mostly needs no report (reading the memory costs ~10 µs, posting it a message on
 * each side — per task, that was a tenth of a no-op EXEC). The interval outlives the task and
 * serves the next one, so back-to-back tasks do not each set one up and clear it (docs/performance.md);
 * it stops at its first tick between tasks. A thread stuck in synchronous code sends none: that silence is what
 * the host calls unresponsive. The memory is this isolate's own (a worker's
 * `process.memoryUsage()` counts its heap and external memory apart from other threads),
 * which is how Buffers, ArrayBuffers and WebAssembly memories that `resourceLimits` does not
 * cap become visible to the host. V8 leaves some WebAssembly memories out of `external` (all of
 * them from Node 26 on): the thread's census of them is added (see wasm-memories). It is read
 * through the real `process.memoryUsage`, whatever the leaf put in its place.
 */
export function startHeartbeat(send: (message: WorkerControlMessage) => void, everyMs: number): () => void {
  if (ticker?.everyMs !== everyMs) ticker = new SharedTicker(everyMs, true, { every, stop });
  return ticker.add(() => send({ type: 'heartbeat', memory: readMemory() }));
}

function readMemory(): MemoryReport {
  const { heapUsed, external, arrayBuffers } = memoryUsage();
  return { heapUsed, external: external + wasmBytesOutsideExternal(), arrayBuffers };
}

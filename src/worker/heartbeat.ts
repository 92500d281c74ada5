import type { MemoryReport, WorkerControlMessage } from '../contracts/protocol.js';

/**
 * Sends a heartbeat with this thread's memory now and every `everyMs` until the returned
 * function is called. A thread stuck in synchronous code sends none: that silence is what
 * the host calls unresponsive. The memory is this isolate's own (a worker's
 * `process.memoryUsage()` counts its heap and external memory apart from other threads),
 * which is how Buffers, ArrayBuffers and WebAssembly memories that `resourceLimits` does not
 * cap become visible to the host.
 */
export function startHeartbeat(send: (message: WorkerControlMessage) => void, everyMs: number): () => void {
  const beat = () => send({ type: 'heartbeat', memory: readMemory() });
  beat();
  const timer = setInterval(beat, everyMs);
  return () => clearInterval(timer);
}

function readMemory(): MemoryReport {
  const { heapUsed, external, arrayBuffers } = process.memoryUsage();
  return { heapUsed, external, arrayBuffers };
}

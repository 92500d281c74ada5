import type { EventLoopUtilization } from 'node:perf_hooks';
import type { Worker } from 'node:worker_threads';
import { judgeIdleLoad } from './thread-policy.js';

/**
 * How busy a thread's event loop is while it has no task. Read from the host
 * (`worker.performance.eventLoopUtilization`), so a leaf cannot fake it; a thread stuck in
 * synchronous code counts as fully busy.
 */
export class IdleLoadMeter {
  private baseline: EventLoopUtilization | undefined;
  /** Samples in a row past the busy share since the thread became idle (thread-policy.ts). */
  private strikes = 0;

  constructor(private readonly thread: Worker) {}

  /** The thread just became idle: its load is measured, and judged, from here. */
  start(): void {
    this.baseline = this.read();
    this.strikes = 0;
  }

  /** The thread has a task, or is warming up: nothing it does is idle load. */
  stop(): void {
    this.baseline = undefined;
  }

  /** The busy share of wall time (0–1) since start or the last sample, and over how many ms; undefined when stopped. */
  sample(): { utilization: number; ms: number } | undefined {
    const before = this.baseline;
    if (before === undefined) return undefined;
    const now = this.read();
    if (now === undefined) return undefined;
    this.baseline = now;
    const ms = now.idle + now.active - (before.idle + before.active);
    return ms > 0 ? { utilization: (now.active - before.active) / ms, ms } : undefined;
  }

  /** One sample judged by the policy (`judgeIdleLoad`): whether the thread must be retired; undefined when stopped. */
  judge(): { utilization: number; retire: boolean } | undefined {
    const load = this.sample();
    if (load === undefined) return undefined;
    const judged = judgeIdleLoad(this.strikes, load.utilization);
    this.strikes = judged.strikes;
    return { utilization: load.utilization, retire: judged.retire };
  }

  private read(): EventLoopUtilization | undefined {
    try {
      return this.thread.performance.eventLoopUtilization();
    } catch {
      return undefined; // The thread is gone.
    }
  }
}

import type { MemoryReport } from '../../contracts/protocol.js';
import { SharedTicker } from '../../runtime/shared-ticker.js';

const MB = 1024 * 1024;

/**
 * The detail of a memory fault when a thread's own report is over `externalMb`, else
 * undefined. `external` counts Buffers, ArrayBuffers and WebAssembly memories, none of which
 * `resourceLimits` caps (a 16 MB-heap thread was measured holding 537 MB of Buffers).
 */
export function checkReportedMemory(memory: MemoryReport, externalMb: number): string | undefined {
  if (memory.external <= externalMb * MB) return undefined;
  return `the worker thread holds ${Math.round(memory.external / MB)} MB outside its JS heap (Buffers, ArrayBuffers, WebAssembly memory: ${Math.round(memory.arrayBuffers / MB)} MB in ArrayBuffers), over limits.externalMb ${externalMb}`;
}

/** A run the host RSS watch may end. */
export interface WatchedRun {
  /** The run's last reported memory (heap and external), in bytes. */
  footprint(): number;
  /** How long its thread has been silent (ms): a thread stuck allocating sends nothing. */
  silentFor(): number;
  /**
   * Ends the run with a memory fault. `certain` is false when other runs were in flight: the
   * culprit was a guess, and a guess must not count against the tag (the crash breaker).
   */
  kill(detail: string, certain: boolean): void;
}

/**
 * Watches the host process's resident memory while runs are in flight: the backstop for
 * what no thread reports — a synchronous allocation loop sends no heartbeat, and native
 * memory is in no isolate's count. When RSS passes `rssMb` it ends one run, the likeliest
 * culprit: a silent thread first, then the largest reported footprint. It waits for that
 * run to end before judging again, since a terminated thread's memory takes a moment to go.
 * With several runs in flight the culprit is a guess — a leaf can hold native memory no
 * isolate counts — so such a kill is marked uncertain and is not charged to the tag's crash
 * breaker; with one run in flight it is not a guess.
 */
export class HostMemoryWatch {
  private readonly runs = new Set<WatchedRun>();
  /** Never holds the loop: a run's own watches do. */
  private readonly ticker: SharedTicker;
  private leaveTicker: (() => void) | undefined;
  private victim: WatchedRun | undefined;
  private readonly checkNow = () => this.check();

  constructor(
    private readonly rssMb: number,
    everyMs: number,
    private readonly silentMs: number,
    private readonly readRss: () => number = () => process.memoryUsage.rss(),
  ) {
    this.ticker = new SharedTicker(everyMs, false);
  }

  /** Watches `run` until the returned function is called. */
  add(run: WatchedRun): () => void {
    this.runs.add(run);
    this.leaveTicker ??= this.ticker.add(this.checkNow);
    return () => {
      this.runs.delete(run);
      if (this.victim === run) this.victim = undefined;
      if (this.runs.size === 0) {
        this.leaveTicker?.();
        this.leaveTicker = undefined;
      }
    };
  }

  private check(): void {
    if (this.victim !== undefined) return;
    const rss = this.readRss();
    if (rss <= this.rssMb * MB) return;
    const victim = this.pickVictim();
    if (victim === undefined) return;
    this.victim = victim;
    const certain = this.runs.size === 1;
    victim.kill(
      `the host process's resident memory reached ${Math.round(rss / MB)} MB, over limits.rssMb ${this.rssMb}; this run was ${certain ? 'the only one in flight' : `the likeliest cause of ${this.runs.size} in flight`} (${this.describe(victim)})`,
      certain,
    );
  }

  private pickVictim(): WatchedRun | undefined {
    let best: WatchedRun | undefined;
    for (const run of this.runs) {
      if (best === undefined || this.weigh(run) > this.weigh(best)) best = run;
    }
    return best;
  }

  /** Silent threads outrank any reported size; among the rest, the biggest wins. */
  private weigh(run: WatchedRun): number {
    return (run.silentFor() > this.silentMs ? Number.MAX_SAFE_INTEGER / 2 : 0) + run.footprint();
  }

  private describe(run: WatchedRun): string {
    return run.silentFor() > this.silentMs
      ? `its thread has been silent for ${Math.round(run.silentFor())}ms`
      : `it reported ${Math.round(run.footprint() / MB)} MB`;
  }
}

import type { RunTrace } from '../tier.js';

// Runs waiting for their thread to start (the admission queue), or in the process tier for
// their engine: how many of each tag wait now (`host.stats()`), and how long each waited.

/** The runs of each tag waiting, and how long each waited. */
export class QueueWatch {
  private readonly waiting = new Map<string, number>();

  /**
   * A run of `tag` starts waiting. The function returned ends the wait (the first call; later
   * ones change nothing), writes how long it took into `trace` when given, and returns it (ms).
   */
  enter(tag: string, trace?: RunTrace): () => number {
    this.waiting.set(tag, this.count(tag) + 1);
    const since = performance.now();
    let waited: number | undefined;
    return () => {
      if (waited !== undefined) return waited;
      waited = performance.now() - since;
      const left = this.count(tag) - 1;
      if (left > 0) this.waiting.set(tag, left);
      else this.waiting.delete(tag);
      if (trace !== undefined) trace.queueMs = waited;
      return waited;
    };
  }

  /** Runs of `tag` waiting now. */
  count(tag: string): number {
    return this.waiting.get(tag) ?? 0;
  }
}

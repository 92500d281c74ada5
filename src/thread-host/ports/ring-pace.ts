/**
 * How one run's sink ring is read (sink-ring.ts): up to `share` records at a time, and, when
 * `perMs` is finite, no more than `perMs` a millisecond once its `burst` is spent.
 */
export interface RingPacing {
  readonly share: number;
  readonly perMs: number;
  readonly burst: number;
}

/**
 * A host's own thread tier: a turn's share at a time, never held. Its main thread is every
 * package's, so a share stays small (~50 µs of one-character writes, as a port's share is:
 * thread-port.ts), and a flood is read at the pace that main thread reads it.
 */
export const SHARED_MAIN_THREAD: RingPacing = { share: 256, perMs: Infinity, burst: Infinity };

/**
 * An engine's thread tier. Read a turn's share at a time, a flood of one-character writes kept
 * the engine's main thread busy for as long as it lasted, with the service's reading its frames
 * beside it: both cores of a 2-core machine, and another tag's no-op EXEC took 2.1–2.9× its
 * time alone. Read 2,048 records a millisecond in one go, the main thread sleeps between them,
 * and that EXEC takes 1.2–1.9×. The flood takes about as long (an engine forwarded ~2,000–2,500
 * records a millisecond unpaced); fewer, larger batches cost less per record. The engine's main
 * thread serves only its own package's runs, which are all a longer share can delay. The
 * service applies such a batch whole, in a turn of its own (engine/frame-share.ts): another
 * engine's frames wait for one batch at most, and that EXEC's figure above includes the wait.
 */
export const ENGINE_MAIN_THREAD: RingPacing = { share: 2048, perMs: 2048, burst: 16_384 };

let pacing = SHARED_MAIN_THREAD;

/** The pacing every ring of this process is read at from now on: an engine sets its own before it boots its tier. */
export function setRingPacing(next: RingPacing): void {
  pacing = next;
}

/** The pacing rings are read at in this process. */
export function ringPacing(): RingPacing {
  return pacing;
}

/**
 * A token bucket over one run's ring records: a run that writes less than `perMs` on average
 * is never held; a flood, once its `burst` is spent, waits on a timer until a whole share is
 * allowed, rather than for the next turn. What is left when the run ends is drained at once.
 */
export class RingPace {
  private tokens: number;
  private filled: number;

  constructor(
    private readonly perMs: number,
    private readonly burst: number,
    private readonly now: () => number = () => performance.now(),
  ) {
    this.tokens = burst;
    this.filled = this.now();
  }

  /** Records allowed now: whole tokens, at most the burst. */
  allowance(): number {
    const now = this.now();
    this.tokens = Math.min(this.burst, this.tokens + (now - this.filled) * this.perMs);
    this.filled = now;
    return Math.floor(this.tokens);
  }

  /** Counts `records` read. */
  spend(records: number): void {
    this.tokens -= records;
  }

  /** Milliseconds until `records` (at most the burst) are allowed: 0 when they are now. */
  wait(records: number): number {
    const short = Math.min(records, this.burst) - this.allowance();
    return short <= 0 ? 0 : Math.ceil(short / this.perMs);
  }
}

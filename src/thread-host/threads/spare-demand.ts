import { performance } from 'node:perf_hooks';

/**
 * How many warm spares one tag keeps: as many as its runs lately needed. The demand is the
 * most runs of the tag in flight at once, and one more when a run took a spare that was still
 * starting (back-to-back runs under `'each-run'` are one at a time, yet each consumes a thread:
 * a second spare, starting while the first serves, keeps up). It halves for every `idleMs` in
 * which it was not reached again, down to none: a tag nobody uses holds no thread.
 */
export class SpareDemand {
  private peak: number;
  /** When `peak` was last reached (or last halved). */
  private since: number;
  private inFlight = 0;

  /** `initial` spares are wanted until the first `idleMs` passes (the boot probe's thread is the first). */
  constructor(
    private readonly idleMs: number,
    initial = 1,
    private readonly now: () => number = () => performance.now(),
  ) {
    this.peak = initial;
    this.since = now();
  }

  /** A run of the tag wants a thread. */
  runStarted(): void {
    this.inFlight += 1;
    this.reach(this.inFlight);
  }

  /** A run of the tag gave its thread back (or never got one). */
  runEnded(): void {
    // The peak held while this run was in flight: it decays from now.
    if (this.inFlight >= this.peak) this.since = this.now();
    this.inFlight = Math.max(0, this.inFlight - 1);
  }

  /** A run took a spare that was still starting: the runs in flight, and one warm spare beside them, are wanted. */
  late(): void {
    this.reach(this.inFlight + 1);
  }

  /** Runs of the tag in flight now: lent a thread, or waiting for one. */
  get runs(): number {
    return this.inFlight;
  }

  /** Spares wanted now. */
  wanted(): number {
    this.decay();
    return this.peak;
  }

  private reach(level: number): void {
    this.decay();
    if (level < this.peak) return;
    this.peak = level;
    this.since = this.now();
  }

  private decay(): void {
    const now = this.now();
    // Never below the runs in flight: their level is reached as long as they last.
    while (this.peak > this.inFlight && now - this.since >= this.idleMs) {
      this.peak = Math.floor(this.peak / 2);
      this.since += this.idleMs;
    }
  }
}

/**
 * The host-wide budget of spare threads: each idle spare holds memory (an isolate, the leaf's
 * module graph, sql.js or jq-wasm's WebAssembly). A spare holds one unit from its start until a
 * run takes it or it is retired; past the budget no spare is started.
 */
export class SpareBudget {
  private held = 0;

  constructor(readonly max: number) {}

  /** One unit, or false when the budget is spent. */
  tryTake(): boolean {
    if (this.held >= this.max) return false;
    this.held += 1;
    return true;
  }

  give(): void {
    this.held = Math.max(0, this.held - 1);
  }

  /** Units held now, for tests and diagnostics. */
  get inUse(): number {
    return this.held;
  }
}

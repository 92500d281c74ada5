/** The timer functions a ticker uses: the globals by default, read when it is made. */
export interface TickerTimers {
  readonly every: typeof setInterval;
  readonly stop: typeof clearInterval;
}

/**
 * One interval for every watch that wants a call each `everyMs`. The host's heartbeat check and
 * the thread's heartbeat each set up and cleared an interval of their own per run, so runs one
 * after another paid a timer's set-up and removal on their path (docs/performance.md); the RSS
 * watch already kept one, the pattern here. The interval starts with the first watch, and stops
 * at its first tick that finds none rather than when the last one leaves, which back-to-back runs
 * would make it do every run. With `holdsLoop`, it keeps the event loop alive while a watch is on it, as each
 * run's own interval did, and never once none is; without, it never does.
 */
export class SharedTicker {
  private readonly watches = new Set<() => void>();
  private timer: ReturnType<typeof setInterval> | undefined;

  constructor(
    readonly everyMs: number,
    private readonly holdsLoop: boolean,
    private readonly timers: TickerTimers = { every: setInterval, stop: clearInterval },
  ) {}

  /** Calls `check` at every tick until the returned function is called. */
  add(check: () => void): () => void {
    this.watches.add(check);
    if (this.timer === undefined) {
      this.timer = this.timers.every(() => this.tick(), this.everyMs);
      if (!this.holdsLoop) this.timer.unref();
    } else if (this.holdsLoop && this.watches.size === 1) this.timer.ref();
    return () => {
      if (this.watches.delete(check) && this.holdsLoop && this.watches.size === 0) this.timer?.unref();
    };
  }

  private tick(): void {
    if (this.watches.size === 0) {
      this.timers.stop(this.timer);
      this.timer = undefined;
      return;
    }
    for (const check of this.watches) check();
  }
}

/** How long a tag's retirements and new spares wait at most for its runs in flight to end. */
export const QUIET_MAX_MS = 200;

/**
 * When the work a run's release leaves behind — retiring its thread, starting the spares that
 * replace it — may start: a turn later when no other run of the tag is in flight, else once the
 * last of them ended, or {@link QUIET_MAX_MS} after the first release that waited. A burst of
 * runs after idle is served by warm spares; the first runs to end used to retire their threads
 * and start replacements at once, and on 2 cores those terminations and starts (Node's
 * bootstrap of an isolate, ~70 ms of CPU each) took the CPU the burst's last runs waited for
 * (a burst of 12: p50 6–10× one warm run). Under steady load, runs are always in flight: the
 * bound keeps replacements coming, and a run that finds no spare starts its thread itself.
 */
export class BurstQuiet {
  private waiting: (() => void)[] = [];
  private timer: NodeJS.Timeout | undefined;

  /** `inFlight` counts the tag's runs in flight now. */
  constructor(private readonly inFlight: () => number) {}

  /** Resolves when what a release leaves may start (see the class). */
  wait(): Promise<void> {
    if (this.inFlight() === 0) return new Promise((resolve) => setImmediate(resolve));
    return new Promise((resolve) => {
      this.waiting.push(resolve);
      this.timer ??= setTimeout(() => this.flush(), QUIET_MAX_MS);
    });
  }

  /** A run of the tag gave its thread back: once none is in flight, what waited goes. */
  runEnded(): void {
    if (this.inFlight() === 0) this.flush();
  }

  /** Lets everything that waits go now (a turn later): the last run ended, the bound ran out, or the tag closes. */
  flush(): void {
    clearTimeout(this.timer);
    this.timer = undefined;
    const waiting = this.waiting;
    this.waiting = [];
    if (waiting.length > 0) setImmediate(() => waiting.forEach((resolve) => resolve()));
  }
}

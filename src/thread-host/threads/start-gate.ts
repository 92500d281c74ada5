import { onAbort } from '../../runtime/abort-fanout.js';
import { DEFAULT_LOAD_TIMEOUT_MS, DEFAULT_SPARES } from '../../model/defaults.js';
import { SpareBudget } from './spare-demand.js';

/** How many threads may be starting at once, host-wide and per tag. */
export interface StartLimits {
  readonly threadStarts: number;
  readonly threadStartsPerTag: number;
}

/** What may end a task's wait for a start slot: its signals (the caller's, the host's closing), and a bound. */
export interface StartWait {
  readonly signals?: readonly (AbortSignal | undefined)[];
  /** Past this in the queue the task fails {@link QueueTimeoutError}; undefined waits as long as it takes. */
  readonly timeoutMs?: number;
}

/** A run waited `admission.queueTimeoutMs` for a thread to start: the host is overloaded (503 `host-overloaded`). */
export class QueueTimeoutError extends Error {
  override readonly name = 'QueueTimeoutError';
}

/** A task's signal (the caller's, or the host's closing) aborted while it waited: no thread was started for it. */
export class QueueAbortedError extends Error {
  override readonly name = 'QueueAbortedError';
}

interface Waiter {
  readonly tag: string;
  readonly admit: () => void;
}

/**
 * The admission queue in front of thread starts. Starting a thread (Node's bootstrap, the
 * worker entry, the leaf's import: sql.js and jq-wasm compile WebAssembly) is the costliest
 * thing the host does, and 200 at once on 2 cores made every start slow enough to overrun the
 * host's own load and effect deadlines, blaming healthy leaves. So at most `threadStarts`
 * threads start at once (`threadStartsPerTag` of one tag, so a burst of one tag leaves room
 * for the others); a task that needs a new thread past that waits here, in arrival order,
 * before its thread exists, so no deadline that judges the leaf runs while it waits. A task
 * that finds an idle thread never comes here.
 */
export class StartGate {
  private starting = 0;
  private readonly startingByTag = new Map<string, number>();
  private readonly waiting: Waiter[] = [];

  constructor(private readonly limits: StartLimits) {}

  /**
   * A start slot for `tag`, once one is free: the returned function gives it back (idempotent).
   * Rejects with {@link QueueTimeoutError} after `wait.timeoutMs` in the queue, or with
   * {@link QueueAbortedError} when one of `wait.signals` aborts first (or had, when it must wait).
   */
  enter(tag: string, wait: StartWait = {}): Promise<() => void> {
    const signals = wait.signals ?? [];
    // Only the wait is cancelled: a task whose slot is free goes on even when aborted already,
    // so a pre-aborted run meets its leaf as it would on an idle thread (the leaf answers 499).
    const now = this.tryEnter(tag);
    if (now !== undefined) return Promise.resolve(now);
    if (signals.some((signal) => signal?.aborted))
      return Promise.reject(new QueueAbortedError('aborted before it was queued'));
    return new Promise((resolve, reject) => {
      const leave = (error: Error) => {
        const index = this.waiting.indexOf(waiter);
        if (index === -1) return;
        this.waiting.splice(index, 1);
        done();
        reject(error);
      };
      const { timeoutMs } = wait;
      const timer =
        timeoutMs === undefined
          ? undefined
          : setTimeout(
              () =>
                leave(
                  new QueueTimeoutError(
                    `no thread could start for it within admission.queueTimeoutMs ${timeoutMs}ms (${this.starting} starting, ${this.waiting.length} waiting)`,
                  ),
                ),
              timeoutMs,
            );
      // Shared signals get one listener each however many tasks wait (abort-fanout.ts).
      const unsubscribe = signals.flatMap((signal) =>
        signal === undefined ? [] : [onAbort(signal, () => leave(new QueueAbortedError('aborted while queued')))],
      );
      const done = () => {
        clearTimeout(timer);
        for (const each of unsubscribe) each();
      };
      const waiter: Waiter = {
        tag,
        admit: () => {
          done();
          resolve(this.take(tag));
        },
      };
      this.waiting.push(waiter);
    });
  }

  /**
   * A start slot for `tag` now, or undefined when the limits are reached. A spare (`spare`) may
   * take any slot free host-wide, past its tag's share: it only ever takes a slot no waiting
   * task was given, and its start is what a burst of its tag needs.
   */
  tryEnter(tag: string, spare = false): (() => void) | undefined {
    const free = spare ? this.starting < this.limits.threadStarts : this.canStart(tag);
    return free ? this.take(tag) : undefined;
  }

  /** Threads starting and tasks waiting, for tests and diagnostics. */
  snapshot(): { starting: number; waiting: number } {
    return { starting: this.starting, waiting: this.waiting.length };
  }

  private canStart(tag: string): boolean {
    return (
      this.starting < this.limits.threadStarts && (this.startingByTag.get(tag) ?? 0) < this.limits.threadStartsPerTag
    );
  }

  private take(tag: string): () => void {
    this.starting += 1;
    this.startingByTag.set(tag, (this.startingByTag.get(tag) ?? 0) + 1);
    let given = false;
    return () => {
      if (given) return;
      given = true;
      this.starting -= 1;
      const left = this.startingByTag.get(tag)! - 1;
      if (left === 0) this.startingByTag.delete(tag);
      else this.startingByTag.set(tag, left);
      this.admitWaiting();
    };
  }

  /** Admits, in arrival order, every waiter whose tag has a free slot now. */
  private admitWaiting(): void {
    for (let i = 0; i < this.waiting.length && this.starting < this.limits.threadStarts;) {
      const waiter = this.waiting[i]!;
      if (!this.canStart(waiter.tag)) {
        i += 1;
        continue;
      }
      this.waiting.splice(i, 1);
      waiter.admit();
    }
  }
}

/** The host's admission queue and spare budget as every tag's threads use them, and how long a start may hold its slot. */
export interface StartAdmission {
  readonly gate: StartGate;
  /** A start gives its slot back when the thread answered its first (warm-up) task, or after this long. */
  readonly loadTimeoutMs: number;
  /** The host-wide budget of spare threads, and how fast an unused tag's spares go (spare-demand.ts). */
  readonly spares: { readonly budget: SpareBudget; readonly idleMs: number };
}

/** For a TagWorkers built alone (tests, benchmarks): neither starts nor spares are bounded; spares decay as a host's do by default. */
export const UNBOUNDED_STARTS: StartAdmission = {
  gate: new StartGate({ threadStarts: Infinity, threadStartsPerTag: Infinity }),
  loadTimeoutMs: DEFAULT_LOAD_TIMEOUT_MS,
  spares: { budget: new SpareBudget(Infinity), idleMs: DEFAULT_SPARES.idleMs },
};

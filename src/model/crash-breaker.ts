import { DEFAULT_BREAKER } from './defaults.js';
/** When a tag's crashes open its breaker, and for how long. */
export interface BreakerOptions {
  /** Crashes within `windowMs` that make a tag degraded. Default 3. */
  crashes: number;
  /** The window crashes are counted in (ms). Default 300 000 (5 minutes). */
  windowMs: number;
  /** How long a degraded tag fast-fails before it may run again (ms). Default 60 000. */
  cooldownMs: number;
}

/** Why a tag is refused right now. */
export interface Degradation {
  /** What its last crash was. */
  readonly reason: string;
  /** Crashes that opened the breaker. */
  readonly crashes: number;
  /** How long until it may run again (ms). */
  readonly retryInMs: number;
}

interface TagState {
  crashes: number[];
  lastReason: string;
  openedAt: number | undefined;
  /** After a cool-down the first run is on probation: one more crash reopens at once. */
  probation: boolean;
}

/**
 * The crash-loop breaker: a tag whose threads crashed `crashes` times within `windowMs` is
 * degraded — `exec` fast-fails instead of starting thread after thread — until `cooldownMs`
 * passed. Then runs go through again on probation: one clean run closes the breaker, one more
 * crash reopens it at once. A crash is a thread the tag's leaf killed or made the host kill:
 * it exited, ran out of memory, stopped answering, or let an error escape. Ordinary failures
 * (a throw, an invalid result, a timeout the caller set) are not crashes.
 */
export class CrashBreaker {
  private readonly tags = new Map<string, TagState>();

  constructor(
    private readonly options: BreakerOptions = DEFAULT_BREAKER,
    private readonly now: () => number = () => performance.now(),
  ) {}

  /** Records a crash of one of `tag`'s threads. */
  record(tag: string, reason: string): void {
    const state = this.state(tag);
    const now = this.now();
    state.crashes = state.crashes.filter((at) => now - at < this.options.windowMs);
    state.crashes.push(now);
    state.lastReason = reason;
    if (state.probation || state.crashes.length >= this.options.crashes) {
      state.openedAt = now;
      state.probation = false;
    }
  }

  /** A run of `tag` ended without a crash: probation, if any, is over. */
  succeeded(tag: string): void {
    const state = this.tags.get(tag);
    if (state?.probation) {
      state.probation = false;
      state.crashes = [];
    }
  }

  /** Why `tag` is degraded now, or undefined when it may run. A passed cool-down starts probation. */
  degradation(tag: string): Degradation | undefined {
    const state = this.tags.get(tag);
    if (state?.openedAt === undefined) return undefined;
    const retryInMs = state.openedAt + this.options.cooldownMs - this.now();
    if (retryInMs <= 0) {
      state.openedAt = undefined;
      state.probation = true;
      state.crashes = [];
      return undefined;
    }
    return { reason: state.lastReason, crashes: Math.max(state.crashes.length, 1), retryInMs: Math.ceil(retryInMs) };
  }

  private state(tag: string): TagState {
    let state = this.tags.get(tag);
    if (state === undefined) {
      state = { crashes: [], lastReason: '', openedAt: undefined, probation: false };
      this.tags.set(tag, state);
    }
    return state;
  }
}

import { DEFAULT_BREAKER } from './defaults.js';
import type { BreakerStats } from './observe/host-stats.js';
import { eventText, publishEvent } from './observe/publish-event.js';
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
  /** Every crash ever recorded (`host.stats()`). */
  total: number;
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
 * (a throw, an invalid result, a timeout the caller set) are not crashes. Opening publishes
 * `plurnk-execs:tag:degraded`, closing after probation `plurnk-execs:tag:restored`.
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
    state.total += 1;
    state.lastReason = reason;
    if (state.probation || state.crashes.length >= this.options.crashes) {
      state.openedAt = now;
      state.probation = false;
      publishEvent('plurnk-execs:tag:degraded', () => ({
        tag,
        crashes: state.crashes.length,
        reason: eventText(reason),
        retryInMs: this.options.cooldownMs,
      }));
    }
  }

  /** A run of `tag` ended without a crash: probation, if any, is over. */
  succeeded(tag: string): void {
    const state = this.tags.get(tag);
    if (state?.probation) {
      state.probation = false;
      state.crashes = [];
      publishEvent('plurnk-execs:tag:restored', () => ({ tag }));
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

  /** Every crash recorded for `tag`, and its breaker as `host.stats()` reports it. */
  inspect(tag: string): { total: number; breaker: BreakerStats } {
    const degraded = this.degradation(tag);
    const state = this.tags.get(tag);
    const lastCrash = state === undefined || state.total === 0 ? null : state.lastReason;
    const breaker: BreakerStats =
      degraded === undefined
        ? {
            state: state?.probation === true ? 'probation' : 'closed',
            crashes: this.recent(state),
            retryInMs: null,
            retryAt: null,
            lastCrash,
          }
        : {
            state: 'open',
            crashes: degraded.crashes,
            retryInMs: degraded.retryInMs,
            retryAt: new Date(Date.now() + degraded.retryInMs).toISOString(),
            lastCrash,
          };
    return { total: state?.total ?? 0, breaker };
  }

  /** Crashes of `state` still within the window. */
  private recent(state: TagState | undefined): number {
    const now = this.now();
    return state?.crashes.filter((at) => now - at < this.options.windowMs).length ?? 0;
  }

  private state(tag: string): TagState {
    let state = this.tags.get(tag);
    if (state === undefined) {
      state = { crashes: [], total: 0, lastReason: '', openedAt: undefined, probation: false };
      this.tags.set(tag, state);
    }
    return state;
  }
}

import type { Effect } from '../contracts/effect.js';
import type { RuntimeToolRegistry } from '../contracts/invocation.js';
import type { Discovery } from '../contracts/registry.js';
import type { ParsedExecRequest } from './exec-request.js';
import type { Availability, ExecOutcome, Isolation } from './host-types.js';
import type { TierStats } from './observe/host-stats.js';

/** What a tier tells the front door of one run beyond its outcome (the `exec` trace, `host.stats()`). */
export interface RunTrace {
  /** How long the run waited for its thread (and, in the process tier, its engine), ms; unset when it never queued. */
  queueMs?: number;
}

// One tier of isolation, as the front door (src/host) drives it: the thread tier (the leaves'
// threads in this process, src/thread-host) or the process tier (in an engine process,
// src/engine). The front door validates every call, resolves the default runtime, counts what is
// in flight and refuses everything once the host closes; a tier only does the work, and never
// knows which front door or which other tier there is.

/** What the front door needs of a tier: the `Host` surface, minus what every tier shares. */
export interface Tier {
  readonly discovery: Discovery;
  availability(tag: string): Availability | undefined;
  availableRuntimes(): string[];
  toolRegistry(tag: string): RuntimeToolRegistry | undefined;
  isolation(): Isolation;
  /** The admission fact of `target` for `tag` (never '': the front door resolved it); rejects with a named error. */
  effect(tag: string, target: string | null): Promise<Effect>;
  /**
   * One validated EXEC whose runtime is resolved; settles with its outcome, rejecting only for a
   * bug of the host. Fills `trace` as the run goes.
   */
  run(request: ParsedExecRequest, trace?: RunTrace): Promise<ExecOutcome>;
  /** What the tier knows of every registered tag that the front door cannot see, and its engines. */
  stats(): Promise<TierStats>;
  /**
   * Ends everything the tier started. The host's closing signal (given at boot) has aborted;
   * `settled` resolves once every call the front door let in has settled. A tier ends its runs
   * first or last as it must: the thread tier waits for them before it ends their threads, the
   * process tier ends its engine, which settles them.
   */
  close(settled: Promise<void>): Promise<void>;
}

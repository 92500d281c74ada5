import type { ViolationKind } from '../../contracts/violation.js';
import type { OutcomeClass } from '../outcome-class.js';
import type { LatencySummary } from './latency-histogram.js';
import type { EngineContainment } from './observe-events.js';

// What `host.stats()` answers (docs/host.md "Observing the host"): plain JSON, the same shape in
// both tiers. The front door counts what passes it (runs by outcome, latency, queue wait,
// violations); the tier adds what only it sees (threads, the breaker, runs waiting, engines).

/** A tag's threads by where they are in their life. */
export interface ThreadCounts {
  /** Started, still loading the leaf and warming up. */
  starting: number;
  /** Waiting for a task (`starting` ones not counted). */
  idle: number;
  /** Lent to a run, a probe or an `effect()` call. */
  busy: number;
  /** Told to end, not yet gone (their processes being reaped). */
  retiring: number;
  /** Never-used threads kept warm for the next runs (starting or idle; counted there too). */
  spares: number;
}

/** A tag's crash-loop breaker (docs/faults.md). */
export interface BreakerStats {
  /** `closed`: runs go through; `open`: runs fail 503 `runtime-degraded`; `probation`: the cool-down passed, the next crash reopens it at once. */
  state: 'closed' | 'open' | 'probation';
  /** Crashes within the breaker window. */
  crashes: number;
  /** While open: until the tag may run again; else null. */
  retryInMs: number | null;
  /** While open: when (ISO 8601) the tag may run again; else null. */
  retryAt: string | null;
  /** The last crash the breaker counted, or null. */
  lastCrash: string | null;
}

/** What a tier knows of one tag that the front door cannot see. */
export interface TierTagStats {
  /** Null when the engine that holds the tag did not answer (it is restarting). */
  threads: ThreadCounts | null;
  /** Runs waiting for a thread to start (in the process tier, also for an engine). */
  waiting: number;
  /** Crashes the breaker counted (of the tag's threads; process tier: and engine deaths charged to it), since its engine booted. */
  crashes: number;
  breaker: BreakerStats;
}

/** One engine process (process tier). */
export interface EngineStats {
  /** The engine's process id as the service sees it; null while none runs. */
  pid: number | null;
  /** The leaf packages it holds. */
  packages: string[];
  /** `running`: booted; `restarting`: dead, another one on the way; `closed`: the host closed. */
  state: 'running' | 'restarting' | 'closed';
  /** When (ISO 8601) the running engine booted; null while none runs. */
  startedAt: string | null;
  uptimeMs: number | null;
  /** Engines booted after the first one. */
  restarts: number;
  /** Why the last engine ended, or null. */
  lastCrash: string | null;
  /** Its resident memory, read by the service from `/proc` (never the engine's own word); null where that cannot be read. */
  rssBytes: number | null;
  containment: EngineContainment;
}

/** What a tier adds to the front door's counts (`Tier.stats()`). */
export interface TierStats {
  tags: Record<string, TierTagStats>;
  /** The engine processes (process tier); empty in the thread tier. */
  engines: EngineStats[];
}

/** Runs counted by the front door. */
export interface RunCounts {
  /** EXECs that settled, by outcome class (every class, zeros included). */
  byOutcome: Record<OutcomeClass, number>;
  /** EXECs the front door let in and that have not settled. */
  inFlight: number;
  /** Of those, the ones waiting for a thread (or an engine) to start. */
  waiting: number;
}

/** One registered tag. */
export interface TagStats extends Omit<TierTagStats, 'waiting'> {
  runs: RunCounts;
  /** From the front door's call to the outcome, of every EXEC that was not refused. */
  latencyMs: LatencySummary;
  /** How long runs waited for their thread (and engine), every run that queued. */
  queueWaitMs: LatencySummary;
  /** Violations recorded in the tag's outcomes, by kind. */
  violations: Partial<Record<ViolationKind, number>>;
}

/** `host.stats()`: a snapshot, plain JSON; every count is since `since`. */
export interface HostStats {
  tier: 'thread' | 'process';
  /** When (ISO 8601) the host booted. */
  since: string;
  uptimeMs: number;
  /** Every EXEC, whatever its tag (an unregistered one's included). */
  runs: RunCounts;
  /** Every registered tag, by name. */
  tags: Record<string, TagStats>;
  /** The engine processes (process tier); empty in the thread tier. */
  engines: EngineStats[];
}

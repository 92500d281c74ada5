/**
 * Why a probe made its tag unavailable through the leaf's own fault, the host judging for it
 * (§executor-probe). A closed set: a caller tells a broken leaf from a missing binary by
 * whether `Availability.fault` is present, and never by the wording of `detail`.
 * - `import-failed`: the leaf's module threw on import, or its default export is no executor class.
 * - `constructor-threw`: the executor's constructor threw, or built no executor.
 * - `load-timeout`: the leaf did not load within the load bound.
 * - `probe-threw`: `probe()` threw or rejected, or an error escaped it.
 * - `probe-timeout`: `probe()` did not settle within `probeTimeoutMs`.
 * - `invalid-verdict`: `probe()` resolved something that is not `{ available, detail? }`.
 * - `invalid-reply`: what the probe answered cannot cross the thread.
 * - `invalid-channels`: the executor declares invalid channels or a `defaultChannel` that is not one of them.
 * - `invalid-tool-registry`: `toolRegistry()` returned an invalid tool family.
 * - `thread-died`: the thread died while probing.
 */
export const PROBE_FAULTS = [
  'import-failed',
  'constructor-threw',
  'load-timeout',
  'probe-threw',
  'probe-timeout',
  'invalid-verdict',
  'invalid-reply',
  'invalid-channels',
  'invalid-tool-registry',
  'thread-died',
] as const;

/** One of {@link PROBE_FAULTS}. */
export type ProbeFault = (typeof PROBE_FAULTS)[number];

/**
 * Why the host, not the run's own result, ended a run. A closed set:
 * - `timeout`: the run's deadline passed (504 whether or not it then settled within grace).
 * - `cancelled`: the caller aborted and the run did not settle within grace.
 * - `host-closed`: the host closed while the run was in flight.
 * - `unresponsive`: the thread stopped sending heartbeats.
 * - `heap-limit`: the thread ran out of JS heap (`limits.heapMb`).
 * - `external-limit`: the thread's memory outside its heap passed `limits.externalMb`.
 * - `rss-limit`: the host process passed `limits.rssMb` and this run was the likeliest cause.
 * - `output-limit`: the run wrote past `limits.outputBytes`.
 * - `thread-died`: the thread died during the run (`process.exit()`, a native crash).
 * - `escaped-error`: an error escaped the leaf (from a timer or callback) while the run was in flight.
 * - `host-error`: the host itself failed to judge the run (a bug of the host's, not the leaf's).
 * - `engine-crashed`: the process tier's engine process died (or sent a corrupt frame) during the run.
 * - `engine-unresponsive`: the process tier's engine stopped sending heartbeats and the host killed it.
 */
export const RUN_END_REASONS = [
  'timeout',
  'cancelled',
  'host-closed',
  'unresponsive',
  'heap-limit',
  'external-limit',
  'rss-limit',
  'output-limit',
  'thread-died',
  'escaped-error',
  'host-error',
  'engine-crashed',
  'engine-unresponsive',
] as const;

/** One of {@link RUN_END_REASONS}. */
export type RunEndReason = (typeof RUN_END_REASONS)[number];

/**
 * Why an engine died, where the host can tell (`containment.forcedEnd.cause` of an
 * `engine-crashed` run). A closed set:
 * - `engine-out-of-memory`: the kernel's OOM killer ended it at its cgroup's memory bound (`limits.engineMemoryMb`).
 */
export const ENGINE_DEATH_CAUSES = ['engine-out-of-memory'] as const;

/** One of {@link ENGINE_DEATH_CAUSES}. */
export type EngineDeathCause = (typeof ENGINE_DEATH_CAUSES)[number];

/** How the host ended a run (`containment.forcedEnd`). */
export interface ForcedEnd {
  readonly reason: RunEndReason;
  /** True when the host terminated the run's thread to end it (it did not settle within grace, or could not). */
  readonly terminated: boolean;
  /** Why its engine died, when the host can tell (`engine-crashed` only). */
  readonly cause?: EngineDeathCause;
}

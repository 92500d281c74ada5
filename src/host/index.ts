/**
 * `@plurnk/plurnk-execs/host`: the isolating consumer. Every runtime tag's executor runs in
 * worker threads of its own; runs get MessagePort sinks, cancellation across the thread,
 * recycling, and process-group reaping.
 */
export { bootHost } from './boot-host.js';
export { createHost } from './create-host.js';
export { DEFAULT_PROBE_TIMEOUT_MS } from '../model/defaults.js';
export { ExecRequestSchema, HostOptionsSchema } from '../model/host-schemas.js';
export { CONSUMER_CODES, HOST_PROBLEM_OWNER, type ConsumerCode } from '../model/host-problems.js';
export { isCredentialName } from '../thread-host/index.js';
export { PlurnkExecsError, isPlurnkExecsError, type PlurnkExecsErrorCode } from '../contracts/errors.js';
export type {
  Availability,
  ChannelOutput,
  ChannelPart,
  EmbeddingSinks,
  ExecOutcome,
  ExecRequest,
  Host,
  HostOptions,
  Isolation,
  RecyclePolicy,
  RunContainment,
  RunUsage,
  SandboxGaps,
  StreamAddress,
} from '../model/host-types.js';
export type { Discovery, DiscoveryNotice, ExecInfo, ExecRegistry, RegistryEntry } from '../contracts/registry.js';
export { OUTCOME_CLASSES, type OutcomeClass } from '../model/outcome-class.js';
export {
  ENGINE_DEATH_CAUSES,
  PROBE_FAULTS,
  RUN_END_REASONS,
  type EngineDeathCause,
  type ForcedEnd,
  type ProbeFault,
  type RunEndReason,
} from '../model/fault-kinds.js';
export { VIOLATION_KINDS, type Violation, type ViolationKind } from '../contracts/violation.js';
export type {
  BreakerStats,
  EngineStats,
  HostStats,
  RunCounts,
  TagStats,
  ThreadCounts,
} from '../model/observe/host-stats.js';
export type { LatencySummary } from '../model/observe/latency-histogram.js';
export {
  EVENT_TEXT_CHARS,
  OBSERVE_CHANNELS,
  RETIRE_REASONS,
  type EffectTrace,
  type EngineContainment,
  type EngineCrashEvent,
  type EngineRestartEvent,
  type EngineStartEvent,
  type EngineUnresponsiveEvent,
  type EventName,
  type ExecTrace,
  type ObserveEvents,
  type RetireReason,
  type TagDegradedEvent,
  type TagRestoredEvent,
  type ThreadRetiredEvent,
  type TracedError,
  type ViolationEvent,
} from '../model/observe/observe-events.js';

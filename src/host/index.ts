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
  EngineContainment,
  EngineIsolation,
  ExecOutcome,
  ExecRequest,
  Host,
  HostOptions,
  Isolation,
  RecyclePolicy,
  RunContainment,
  RunUsage,
  StreamAddress,
} from '../model/host-types.js';
export type { Discovery, DiscoveryNotice, ExecInfo, ExecRegistry, RegistryEntry } from '../contracts/registry.js';
export { OUTCOME_CLASSES, type OutcomeClass } from '../model/outcome-class.js';
export {
  PROBE_FAULTS,
  RUN_END_REASONS,
  type ForcedEnd,
  type ProbeFault,
  type RunEndReason,
} from '../model/fault-kinds.js';
export { VIOLATION_KINDS, type Violation, type ViolationKind } from '../contracts/violation.js';

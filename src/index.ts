/**
 * `@plurnk/plurnk-execs`: what an executor leaf imports. The isolating consumer lives at
 * `@plurnk/plurnk-execs/host`.
 */
export {
  BaseExecutor,
  type ExecutorManifest,
  type ExecutorMetadata,
  type ExecutorOptions,
} from './author/base-executor.js';
export { SubprocessExecutor } from './author/subprocess-executor.js';
export { defaultBinary, defaultSpawnArgs } from './author/spawn-recipe.js';
export { tokenizeArgv } from './author/tokenize-argv.js';
export { onProcessGroup, reportProcessGroup, type ProcessGroupListener } from './author/process-groups.js';
export { probeBinary } from './author/probe-binary.js';
export { runVersionCommand, type VersionOutcome } from './author/run-version-command.js';

export {
  CommandSyntaxError,
  PlurnkExecsError,
  isPlurnkExecsError,
  type PlurnkExecsErrorCode,
} from './contracts/errors.js';
export {
  ChannelDeclSchema,
  ChannelDeclsSchema,
  ChannelStateSchema,
  isLegalTransition,
  type ChannelDecl,
  type ChannelState,
} from './contracts/channels.js';
export { EffectSchema, RuntimeAvailabilitySchema, type Effect, type RuntimeAvailability } from './contracts/effect.js';
export {
  ExecArgsSchema,
  SpawnArgsSchema,
  type EntryOptions,
  type ExecArgs,
  type SpawnArgs,
} from './contracts/exec-args.js';
export {
  ProblemDetailsSchema,
  humaniseCode,
  problemCode,
  problemType,
  PROBLEM_OWNER,
  PROBLEM_TYPE_BASE,
  type ProblemDetails,
} from './contracts/problem.js';
export {
  ExecResultSchema,
  SchemeResultSchema,
  ScopeNormalizationsSchema,
  type ScopeNormalization,
  validateResult,
  type ExecResult,
  type ResultValidation,
  type SchemeResult,
} from './contracts/result.js';
export { Results, type ProblemExtensions, type ResultFields } from './contracts/results.js';
export {
  ErrorDetail,
  ERROR_DETAIL_LIMIT,
  PLURNK_EXECS_ERROR_DETAIL_LIMIT,
  type ErrorDetailLimit,
} from './contracts/error-detail.js';
export { renderJsonResult, type JsonReplacer } from './contracts/render-json-result.js';
export { isJsonValue, JsonValueSchema, type JsonValue } from './contracts/json.js';
export {
  ClientInteractionRequestSchema,
  ClientInteractionResolutionSchema,
  ContentOffsetSchema,
  LogCoordinateSchema,
  NoticeSchema,
  type ClientInteractionRequest,
  type ClientInteractionResolution,
  type Notice,
} from './contracts/notice.js';
export {
  RuntimeDeclSchema,
  RuntimeInvocationSchema,
  RuntimeToolRegistrySchema,
  TargetKindSchema,
  type RuntimeDecl,
  type RuntimeInvocationDecl,
  type RuntimeTargetKind,
  type RuntimeToolRegistry,
  type TargetKind,
} from './contracts/invocation.js';
export { checkInvocationBuckets, type BucketCode, type BucketViolation } from './contracts/invocation-buckets.js';
export { DEFAULT_KILL_GRACE_MS, planCancel, type CancelPlan } from './runtime/abort-reason.js';
export { liveGroupMembers, signalGroup, type SignalSpec } from './runtime/process-group.js';
export type { Discovery, DiscoveryNotice, ExecInfo, ExecRegistry, RegistryEntry } from './contracts/registry.js';

export { discover } from './discovery/lazy-discover.js';
export type { DiscoverOptions } from './discovery/discover.js';
export { Policy } from './discovery/policy.js';
export { RuntimeTag } from './discovery/runtime-tag.js';
export { RuntimeInvocation } from './discovery/runtime-invocation.js';
export { RuntimeDeclaration } from './discovery/runtime-declaration.js';
export { isTrusted, PLURNK_PLUGINS_TRUSTED_ONLY } from './discovery/trust.js';
export { AttributionSchema, normalizeAttribution } from './discovery/attribution.js';
export { DeclarationSchema, validateRuntimeDecl, type DeclarationOrigin } from './discovery/validate-declaration.js';
export { InvocationRulesSchema, normalizeInvocation } from './discovery/invocation-rules.js';
export { ExecManifestSchema } from './discovery/validate-manifest.js';
export { ENV_DEFAULTS_FILE, parseEnvDefaults, type EnvDefault } from './discovery/env-defaults.js';
export { DEFAULT_HOOK_TIMEOUT_MS, type RuntimesHook, type RuntimesHookContext } from './discovery/hook-contract.js';
export {
  ToolRegistrySchema,
  ToolSchema,
  validateToolRegistry,
  type ToolRegistryOwner,
} from './discovery/tool-registry.js';
export {
  renderToolDocument,
  type ExactToolDocument,
  type ToolDocument,
  type ToolDocumentSource,
  type ToolDocuments,
} from './documents/tool-document.js';
export { Advertise, NO_EXECS_NOTICE, type AdvertiseContribution } from './documents/advertise.js';

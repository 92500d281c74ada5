import * as v from 'valibot';
import { EffectSchema } from '../contracts/effect.js';
import { LimitOptionsSchema } from '../contracts/limits.js';
import { strictKeys } from '../contracts/strict-keys.js';
import { schemaAgrees, type MutuallyAssignable, type SameType } from '../contracts/same-type.js';
import type {
  Availability,
  EmbeddingSinks,
  ExecRequest,
  HostOptions,
  RecyclePolicy,
  StreamAddress,
} from './host-types.js';

// The schemas validate; the interfaces in host-types.ts are what the package ships and carry
// the documentation. Each schema is proved at compile time to agree with its interface both
// ways, so neither can drift: the shipped declarations stay plain (valibot's inferred types
// made a consumer's tsc fail with TS2589 under skipLibCheck false) and the schema stays the
// one definition of what is valid.

const PositiveMs = v.pipe(v.number(), v.finite(), v.minValue(1));
const PositiveInteger = v.pipe(v.number(), v.integer(), v.minValue(1));
const Count = v.pipe(v.number(), v.integer(), v.minValue(0));
const isFunction = (input: unknown): boolean => typeof input === 'function';
/** A function-valued field: checked to be a function; its signature is the interface's. */
const fn = <F>() => v.optional(v.custom<F>(isFunction, 'Invalid type: Expected a function'));
/** `env` is typed `NodeJS.ProcessEnv` so `process.env` passes as is; the schema checks the values. */
const Env = v.optional(v.record(v.string(), v.optional(v.string())));

const recyclePolicySchema = v.union([
  v.literal('each-run'),
  v.literal('never'),
  strictKeys({ afterRuns: v.pipe(v.number(), v.integer(), v.minValue(1)) }),
]);
schemaAgrees<SameType<v.InferOutput<typeof recyclePolicySchema>, RecyclePolicy>>();

const hostOptionsSchema = strictKeys({
  isolation: v.optional(v.picklist(['process', 'thread'])),
  permissions: v.optional(
    strictKeys({
      fsWrite: v.optional(v.array(v.pipe(v.string(), v.nonEmpty()))),
      addons: v.optional(v.boolean()),
      network: v.optional(v.boolean()),
    }),
  ),
  cwd: v.optional(v.string()),
  packageDirs: v.optional(v.array(v.string())),
  env: Env,
  probeTimeoutMs: v.optional(PositiveMs),
  loadTimeoutMs: v.optional(PositiveMs),
  defaultRuntime: v.optional(v.pipe(v.string(), v.nonEmpty())),
  recycle: v.optional(recyclePolicySchema),
  onProbe: fn<(tag: string, availability: Availability) => void>(),
  tags: v.optional(v.array(v.pipe(v.string(), v.nonEmpty()))),
  onInvalidLeaf: v.optional(v.picklist(['fail', 'skip'])),
  hookTimeoutMs: v.optional(PositiveMs),
  breaker: v.optional(
    strictKeys({
      crashes: v.optional(PositiveInteger),
      windowMs: v.optional(PositiveMs),
      cooldownMs: v.optional(PositiveMs),
    }),
  ),
  admission: v.optional(
    strictKeys({
      threadStarts: v.optional(PositiveInteger),
      threadStartsPerTag: v.optional(PositiveInteger),
      queueTimeoutMs: v.optional(PositiveMs),
    }),
  ),
  spares: v.optional(strictKeys({ max: v.optional(Count), idleMs: v.optional(PositiveMs) })),
  limits: v.optional(LimitOptionsSchema),
});
type HostOptionsIn = v.InferInput<typeof hostOptionsSchema>;
type HostOptionsOut = v.InferOutput<typeof hostOptionsSchema>;
schemaAgrees<SameType<Omit<HostOptionsIn, 'env'>, Omit<HostOptions, 'env'>>>();
schemaAgrees<SameType<Omit<HostOptionsOut, 'env'>, Omit<HostOptions, 'env'>>>();
schemaAgrees<MutuallyAssignable<HostOptionsOut['env'], HostOptions['env']>>();

/**
 * Schema of {@link HostOptions}: strict, so a misspelt option fails instead of being ignored.
 * The defaults are in defaults.ts (a test pins them to the JSDoc of `HostOptions`).
 */
export const HostOptionsSchema: v.GenericSchema<HostOptions> = hostOptionsSchema;

const streamAddressSchema = strictKeys({ loop: Count, turn: Count, sequence: Count });
schemaAgrees<SameType<v.InferOutput<typeof streamAddressSchema>, StreamAddress>>();

const sinksSchema = strictKeys({
  write: fn<EmbeddingSinks['write']>(),
  setState: fn<EmbeddingSinks['setState']>(),
  emit: fn<EmbeddingSinks['emit']>(),
  interact: fn<EmbeddingSinks['interact']>(),
  entry: fn<EmbeddingSinks['entry']>(),
});
schemaAgrees<SameType<keyof v.InferOutput<typeof sinksSchema>, keyof EmbeddingSinks>>();
schemaAgrees<MutuallyAssignable<v.InferOutput<typeof sinksSchema>, EmbeddingSinks>>();

const execRequestSchema = strictKeys({
  runtime: v.string(),
  body: v.string(),
  target: v.optional(v.nullable(v.string())),
  cwd: v.optional(v.nullable(v.string())),
  env: Env,
  signal: v.optional(v.instance(AbortSignal)),
  timeoutMs: v.optional(PositiveMs),
  address: v.optional(streamAddressSchema),
  effect: v.optional(EffectSchema),
  sinks: v.optional(sinksSchema),
});
type ExecRequestIn = v.InferInput<typeof execRequestSchema>;
type ExecRequestOut = v.InferOutput<typeof execRequestSchema>;
schemaAgrees<SameType<Omit<ExecRequestIn, 'env' | 'sinks'>, Omit<ExecRequest, 'env' | 'sinks'>>>();
schemaAgrees<SameType<Omit<ExecRequestOut, 'env' | 'sinks'>, Omit<ExecRequest, 'env' | 'sinks'>>>();
schemaAgrees<MutuallyAssignable<ExecRequestOut['env'], ExecRequest['env']>>();
schemaAgrees<MutuallyAssignable<ExecRequestOut['sinks'], ExecRequest['sinks']>>();

/** Schema of {@link ExecRequest}: strict, so a misspelt field is an error rather than ignored. */
export const ExecRequestSchema: v.GenericSchema<ExecRequest> = execRequestSchema;

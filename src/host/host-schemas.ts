import * as v from 'valibot';
import { EffectSchema } from '../contracts/effect.js';

const PositiveMs = v.pipe(v.number(), v.finite(), v.minValue(1));
const PositiveInteger = v.pipe(v.number(), v.integer(), v.minValue(1));

/** Schema of `RecyclePolicy`: after every run, never, or after a number of runs. */
export const RecyclePolicySchema = v.union([
  v.literal('each-run'),
  v.literal('never'),
  v.strictObject({ afterRuns: v.pipe(v.number(), v.integer(), v.minValue(1)) }),
]);

/**
 * Schema of `HostOptions`, and the single source of its type (host-types.ts derives it): strict,
 * so a misspelt option fails instead of being ignored. The JSDoc of each field is the option's
 * documentation; its default comes from defaults.ts (a test pins the two together).
 */
export const HostOptionsSchema = v.strictObject({
  /**
   * Where the leaves' threads live (docs/isolation.md): `'process'`, an engine process of the
   * host's own (restarted when it dies, in a PID namespace where the platform gives one, under
   * Node's permission model); `'thread'`, the caller's own process. Default `'thread'`.
   */
  isolation: v.optional(v.picklist(['process', 'thread'])),
  /** The process tier's Node permission model: directories the engine may write under. Default: `cwd` and the temp directory. */
  permissions: v.optional(v.strictObject({ fsWrite: v.optional(v.array(v.pipe(v.string(), v.nonEmpty()))) })),
  /** Discovery root (the nearest node_modules above it). Default: `process.cwd()`. */
  cwd: v.optional(v.string()),
  /** Explicit package directories to discover instead of scanning node_modules. */
  packageDirs: v.optional(v.array(v.string())),
  /** Policy and trust environment. Default: `process.env`. */
  env: v.optional(v.record(v.string(), v.optional(v.string()))),
  /** How long one tag's `probe()` may take at boot. Default 3000. */
  probeTimeoutMs: v.optional(PositiveMs),
  /**
   * How long a thread may take to start, import and construct its leaf before a probe, an
   * `effect()` call or a run gives up on it (a leaf that spins at import). Default 15 000.
   */
  loadTimeoutMs: v.optional(PositiveMs),
  /** A tag that must be registered and available, or boot fails naming it. */
  defaultRuntime: v.optional(v.pipe(v.string(), v.nonEmpty())),
  /** When a thread that ran a run is replaced. Default `'each-run'`. */
  recycle: v.optional(RecyclePolicySchema),
  /** Called once per tag as its boot verdict arrives (progress for long boots); a throw is ignored. */
  onProbe: v.optional(v.function()),
  /** How long one package's `runtimesModule` hook may take during discovery. Default 10 000. */
  hookTimeoutMs: v.optional(PositiveMs),
  /** The crash-loop breaker (docs/faults.md): `crashes` within `windowMs` degrade a tag for `cooldownMs`. Defaults 3, 300 000, 60 000. */
  breaker: v.optional(
    v.strictObject({
      crashes: v.optional(PositiveInteger),
      windowMs: v.optional(PositiveMs),
      cooldownMs: v.optional(PositiveMs),
    }),
  ),
  /** What one thread and one run may use; every limit has a default (docs/faults.md). */
  limits: v.optional(
    v.strictObject({
      /** JS heap cap of each executor thread (worker `resourceLimits.maxOldGenerationSizeMb`). Default 1024. */
      heapMb: v.optional(v.pipe(v.number(), v.integer(), v.minValue(8))),
      /** Cap on a thread's memory outside its JS heap (Buffers, ArrayBuffers, WebAssembly), as it reports it. Default 1024. */
      externalMb: v.optional(PositiveInteger),
      /** Cap on the host process's resident memory while runs are in flight. Default 80% of the machine's or container's memory. */
      rssMb: v.optional(PositiveInteger),
      /** UTF-8 bytes one run may write across its channels; past it the run fails `output-limit-exceeded`. Default 16 MiB. */
      outputBytes: v.optional(PositiveInteger),
      /** Bytes of notices (their JSON) one run may emit; later ones are dropped and counted. Default 1 MiB. */
      noticeBytes: v.optional(PositiveInteger),
      /** Bytes of a run's result Problem (its JSON: detail and extensions); a bigger one is 500 `executor-invalid-result`. Default 64 KiB. */
      problemBytes: v.optional(PositiveInteger),
      /** Bytes of violation text kept per run (each violation is cut to 1 KiB); later ones are counted. Default 64 KiB. */
      violationBytes: v.optional(PositiveInteger),
      /** Console output kept per run for `containment.console` (the rest is counted). Default 4096. */
      consoleBytes: v.optional(v.pipe(v.number(), v.integer(), v.minValue(0))),
      /** Grace after an abort before the thread is terminated, and between SIGHUP and SIGKILL. Default 2000. */
      graceMs: v.optional(v.pipe(v.number(), v.finite(), v.minValue(0))),
      /** How often a busy thread sends a heartbeat (and the host checks its limits). Default 250. */
      heartbeatMs: v.optional(PositiveMs),
      /** Silence after which a running thread is `executor-unresponsive` and terminated. Default 30 000. */
      unresponsiveMs: v.optional(PositiveMs),
    }),
  ),
});

const Count = v.pipe(v.number(), v.integer(), v.minValue(0));
const Sink = v.optional(v.function());

/** Schema of `StreamAddress`: where a run's stream lives, `<tag>:///<loop>/<turn>/<sequence>`. */
export const StreamAddressSchema = v.strictObject({ loop: Count, turn: Count, sequence: Count });

/**
 * Schema of `ExecRequest`, and the single source of its type (host-types.ts derives it):
 * strict, so a misspelt field is an error rather than ignored.
 */
export const ExecRequestSchema = v.strictObject({
  /** The runtime tag; '' means the default runtime (`defaultRuntime`, else `sh`, as 1.x). */
  runtime: v.string(),
  /** The EXEC body. */
  body: v.string(),
  /** The authored target, realized by the tag's declared target kind; null or absent for none. */
  target: v.optional(v.nullable(v.string())),
  /** The run's working directory; null or absent for the host process's. */
  cwd: v.optional(v.nullable(v.string())),
  /** Exact child environment for the run; also the thread's `process.env` while it runs. */
  env: v.optional(v.record(v.string(), v.optional(v.string()))),
  /** Cancellation: the reason reaches the leaf's `args.signal` unchanged. */
  signal: v.optional(v.instance(AbortSignal)),
  /** Deadline of the run; past it the run is aborted and settles 504 `execution-timeout`. */
  timeoutMs: v.optional(v.pipe(v.number(), v.finite(), v.minValue(1))),
  /** Where the run's stream lives; the outcome's `address` is built from it. */
  address: v.optional(StreamAddressSchema),
  /**
   * The admission fact the service already has (from `host.effect()` at proposal time): the
   * host uses it and does not call `effect()` again. Absent ⇒ the host calls it once.
   */
  effect: v.optional(EffectSchema),
  /** The embedding service's own sinks. */
  sinks: v.optional(v.strictObject({ write: Sink, setState: Sink, emit: Sink, interact: Sink, entry: Sink })),
});

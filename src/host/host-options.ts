import * as v from 'valibot';
import { DEFAULT_KILL_GRACE_MS } from '../runtime/abort-reason.js';
import { PlurnkExecsError } from '../contracts/errors.js';
import { DEFAULT_WORKER_LIMITS } from '../contracts/protocol.js';
import { describeIssue } from '../contracts/result.js';
import { DEFAULT_BREAKER, type BreakerOptions } from './crash-breaker.js';
import type { Availability, HostOptions, RecyclePolicy } from './host-types.js';
import {
  DEFAULT_EXTERNAL_MB,
  DEFAULT_HEAP_MB,
  DEFAULT_NOTICE_BYTES,
  DEFAULT_PROBLEM_BYTES,
  DEFAULT_UNRESPONSIVE_MS,
  DEFAULT_VIOLATION_BYTES,
  defaultRssMb,
} from './limit-defaults.js';

/** Default time one probe may take at boot. */
export const DEFAULT_PROBE_TIMEOUT_MS = 3000;

/**
 * Default of `loadTimeoutMs`: how long a thread may take to start, import and construct its
 * leaf before a probe, an effect() call or a run gives up on it. Apart from the probe timeout
 * so that a loaded machine starting many threads at once does not fail fast probes.
 */
export const DEFAULT_LOAD_TIMEOUT_MS = 15_000;

const PositiveMs = v.pipe(v.number(), v.finite(), v.minValue(1));
const PositiveInteger = v.pipe(v.number(), v.integer(), v.minValue(1));

/** Schema of {@link HostOptions}: strict, so a misspelt option fails instead of being ignored. */
export const HostOptionsSchema: v.GenericSchema<HostOptions> = v.strictObject({
  cwd: v.optional(v.string()),
  packageDirs: v.optional(v.array(v.string())),
  env: v.optional(v.record(v.string(), v.optional(v.string()))),
  probeTimeoutMs: v.optional(PositiveMs),
  loadTimeoutMs: v.optional(PositiveMs),
  defaultRuntime: v.optional(v.pipe(v.string(), v.nonEmpty())),
  recycle: v.optional(
    v.union([
      v.literal('each-run'),
      v.literal('never'),
      v.strictObject({ afterRuns: v.pipe(v.number(), v.integer(), v.minValue(1)) }),
    ]),
  ),
  onProbe: v.optional(v.function()),
  tags: v.optional(v.array(v.pipe(v.string(), v.nonEmpty()))),
  onInvalidLeaf: v.optional(v.picklist(['fail', 'skip'])),
  hookTimeoutMs: v.optional(PositiveMs),
  breaker: v.optional(
    v.strictObject({
      crashes: v.optional(PositiveInteger),
      windowMs: v.optional(PositiveMs),
      cooldownMs: v.optional(PositiveMs),
    }),
  ),
  limits: v.optional(
    v.strictObject({
      heapMb: v.optional(v.pipe(v.number(), v.integer(), v.minValue(8))),
      externalMb: v.optional(PositiveInteger),
      rssMb: v.optional(PositiveInteger),
      outputBytes: v.optional(PositiveInteger),
      noticeBytes: v.optional(PositiveInteger),
      problemBytes: v.optional(PositiveInteger),
      violationBytes: v.optional(PositiveInteger),
      consoleBytes: v.optional(v.pipe(v.number(), v.integer(), v.minValue(0))),
      graceMs: v.optional(v.pipe(v.number(), v.finite(), v.minValue(0))),
      heartbeatMs: v.optional(PositiveMs),
      unresponsiveMs: v.optional(PositiveMs),
    }),
  ),
});

/** The host's own options with defaults filled in. */
export interface ResolvedHostOptions {
  probeTimeoutMs: number;
  loadTimeoutMs: number;
  defaultRuntime: string | undefined;
  recycle: RecyclePolicy;
  heapMb: number;
  externalMb: number;
  rssMb: number;
  outputBytes: number;
  noticeBytes: number;
  problemBytes: number;
  violationBytes: number;
  consoleBytes: number;
  graceMs: number;
  heartbeatMs: number;
  unresponsiveMs: number;
  breaker: BreakerOptions;
  onProbe: ((tag: string, availability: Availability) => void) | undefined;
}

/** Validates `options` and fills the defaults. Throws `invalid-configuration` naming every bad field. */
export function resolveHostOptions(options: HostOptions = {}): ResolvedHostOptions {
  const parsed = v.safeParse(HostOptionsSchema, options);
  if (!parsed.success) {
    throw new PlurnkExecsError(
      'invalid-configuration',
      `invalid host options: ${parsed.issues.map(describeIssue).join('; ')}`,
    );
  }
  const { probeTimeoutMs, loadTimeoutMs, defaultRuntime, recycle, limits, breaker } = parsed.output;
  const { onProbe } = options;
  return {
    probeTimeoutMs: probeTimeoutMs ?? DEFAULT_PROBE_TIMEOUT_MS,
    loadTimeoutMs: loadTimeoutMs ?? DEFAULT_LOAD_TIMEOUT_MS,
    defaultRuntime,
    recycle: recycle ?? 'each-run',
    heapMb: limits?.heapMb ?? DEFAULT_HEAP_MB,
    externalMb: limits?.externalMb ?? DEFAULT_EXTERNAL_MB,
    rssMb: limits?.rssMb ?? defaultRssMb(),
    outputBytes: limits?.outputBytes ?? DEFAULT_WORKER_LIMITS.outputBytes,
    noticeBytes: limits?.noticeBytes ?? DEFAULT_NOTICE_BYTES,
    problemBytes: limits?.problemBytes ?? DEFAULT_PROBLEM_BYTES,
    violationBytes: limits?.violationBytes ?? DEFAULT_VIOLATION_BYTES,
    consoleBytes: limits?.consoleBytes ?? DEFAULT_WORKER_LIMITS.consoleBytes,
    graceMs: limits?.graceMs ?? DEFAULT_KILL_GRACE_MS,
    heartbeatMs: limits?.heartbeatMs ?? DEFAULT_WORKER_LIMITS.heartbeatMs,
    unresponsiveMs: limits?.unresponsiveMs ?? DEFAULT_UNRESPONSIVE_MS,
    breaker: { ...DEFAULT_BREAKER, ...breaker },
    onProbe,
  };
}

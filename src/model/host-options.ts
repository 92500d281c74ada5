import { tmpdir } from 'node:os';
import { resolve } from 'node:path';
import * as v from 'valibot';
import { PlurnkExecsError } from '../contracts/errors.js';
import type { Limits } from '../contracts/limits.js';
import { describeIssue } from '../contracts/result.js';
import type { BreakerOptions } from './crash-breaker.js';
import type { Availability, HostOptions, RecyclePolicy } from './host-types.js';
import { HostOptionsSchema } from './host-schemas.js';
import {
  DEFAULT_BREAKER,
  DEFAULT_LIMITS,
  DEFAULT_LOAD_TIMEOUT_MS,
  DEFAULT_PROBE_TIMEOUT_MS,
  DEFAULT_QUEUE_TIMEOUT_MS,
  DEFAULT_RECYCLE,
  DEFAULT_SPARES,
  defaultEngineMemoryMb,
  defaultRssMb,
  defaultThreadStarts,
  defaultThreadStartsPerTag,
} from './defaults.js';

/**
 * The host's own options with defaults filled in: built once, by {@link resolveHostOptions}, and
 * passed whole to the tier (in the process tier, on to the engine's thread tier). `limits` goes
 * on whole to each thread, run guard, stream and sink port.
 */
export interface ResolvedHostOptions {
  probeTimeoutMs: number;
  loadTimeoutMs: number;
  defaultRuntime: string | undefined;
  recycle: RecyclePolicy;
  limits: Limits;
  breaker: BreakerOptions;
  admission: { threadStarts: number; threadStartsPerTag: number; queueTimeoutMs: number };
  spares: { max: number; idleMs: number };
  /** What the process tier's engine may do: the directories it may write under, native addons, the service's network. */
  permissions: { fsWrite: string[]; addons: boolean; network: boolean };
  onProbe: ((tag: string, availability: Availability) => void) | undefined;
}

/** Validates `options` and fills the defaults (defaults.ts). Throws `invalid-configuration` naming every bad field. */
export function resolveHostOptions(options: HostOptions = {}): ResolvedHostOptions {
  const parsed = v.safeParse(HostOptionsSchema, options);
  if (!parsed.success) {
    throw new PlurnkExecsError(
      'invalid-configuration',
      `invalid host options: ${parsed.issues.map(describeIssue).join('; ')}`,
    );
  }
  const { probeTimeoutMs, loadTimeoutMs, defaultRuntime, recycle, limits, breaker, admission, spares, permissions } =
    parsed.output;
  const { onProbe } = options;
  return {
    probeTimeoutMs: probeTimeoutMs ?? DEFAULT_PROBE_TIMEOUT_MS,
    loadTimeoutMs: loadTimeoutMs ?? DEFAULT_LOAD_TIMEOUT_MS,
    defaultRuntime,
    recycle: recycle ?? DEFAULT_RECYCLE,
    limits: resolveLimits(limits),
    breaker: { ...DEFAULT_BREAKER, ...breaker },
    admission: {
      threadStarts: admission?.threadStarts ?? defaultThreadStarts(),
      threadStartsPerTag: admission?.threadStartsPerTag ?? defaultThreadStartsPerTag(),
      queueTimeoutMs: admission?.queueTimeoutMs ?? DEFAULT_QUEUE_TIMEOUT_MS,
    },
    spares: { ...DEFAULT_SPARES, ...spares },
    permissions: {
      fsWrite: (permissions?.fsWrite ?? [options.cwd ?? process.cwd(), tmpdir()]).map((dir) => resolve(dir)),
      addons: permissions?.addons === true,
      network: permissions?.network !== false,
    },
    onProbe,
  };
}

/** Every limit: the given ones, the defaults, and the machine's (`engineMemoryMb` follows `rssMb`). */
function resolveLimits(limits: Partial<Limits> | undefined): Limits {
  const rssMb = limits?.rssMb ?? defaultRssMb();
  return { ...DEFAULT_LIMITS, rssMb, engineMemoryMb: defaultEngineMemoryMb(rssMb), ...given(limits) };
}

/** The fields of `options` that are set: `{ graceMs: undefined }` leaves the default in place. */
function given<T extends object>(options: T | undefined): Partial<T> {
  return Object.fromEntries(Object.entries(options ?? {}).filter(([, value]) => value !== undefined)) as Partial<T>;
}

import { tmpdir } from 'node:os';
import { resolve } from 'node:path';
import * as v from 'valibot';
import { PlurnkExecsError } from '../contracts/errors.js';
import { describeIssue } from '../contracts/result.js';
import type { BreakerOptions } from './crash-breaker.js';
import type { Availability, HostOptions, RecyclePolicy } from './host-types.js';
import { HostOptionsSchema } from './host-schemas.js';
import {
  DEFAULT_BREAKER,
  DEFAULT_CONSOLE_BYTES,
  DEFAULT_EXTERNAL_MB,
  DEFAULT_GRACE_MS,
  DEFAULT_HEAP_MB,
  DEFAULT_HEARTBEAT_MS,
  DEFAULT_LOAD_TIMEOUT_MS,
  DEFAULT_NOTICE_BYTES,
  DEFAULT_OUTPUT_BYTES,
  DEFAULT_PROBE_TIMEOUT_MS,
  DEFAULT_PROBLEM_BYTES,
  DEFAULT_QUEUE_TIMEOUT_MS,
  DEFAULT_SPARES,
  DEFAULT_RECYCLE,
  DEFAULT_UNRESPONSIVE_MS,
  DEFAULT_VIOLATION_BYTES,
  defaultRssMb,
  defaultThreadStarts,
  defaultThreadStartsPerTag,
} from './defaults.js';

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
  admission: { threadStarts: number; threadStartsPerTag: number; queueTimeoutMs: number };
  spares: { max: number; idleMs: number };
  /** The process tier's Node permission model: the directories Node code in the engine may write under, and native addons. */
  permissions: { fsWrite: string[]; addons: boolean };
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
    heapMb: limits?.heapMb ?? DEFAULT_HEAP_MB,
    externalMb: limits?.externalMb ?? DEFAULT_EXTERNAL_MB,
    rssMb: limits?.rssMb ?? defaultRssMb(),
    outputBytes: limits?.outputBytes ?? DEFAULT_OUTPUT_BYTES,
    noticeBytes: limits?.noticeBytes ?? DEFAULT_NOTICE_BYTES,
    problemBytes: limits?.problemBytes ?? DEFAULT_PROBLEM_BYTES,
    violationBytes: limits?.violationBytes ?? DEFAULT_VIOLATION_BYTES,
    consoleBytes: limits?.consoleBytes ?? DEFAULT_CONSOLE_BYTES,
    graceMs: limits?.graceMs ?? DEFAULT_GRACE_MS,
    heartbeatMs: limits?.heartbeatMs ?? DEFAULT_HEARTBEAT_MS,
    unresponsiveMs: limits?.unresponsiveMs ?? DEFAULT_UNRESPONSIVE_MS,
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
    },
    onProbe,
  };
}

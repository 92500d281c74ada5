import * as v from 'valibot';
import { ChannelDeclsSchema, type ChannelDecl } from '../contracts/channels.js';
import { RuntimeAvailabilitySchema } from '../contracts/effect.js';
import { ErrorDetail } from '../contracts/error-detail.js';
import {
  isLoadStage,
  type FailureStage,
  type ProbeIdentity,
  type ProbeReport,
  type TaskReply,
} from '../contracts/protocol.js';
import { describeIssue } from '../contracts/result.js';
import type { RuntimeToolRegistry } from '../contracts/invocation.js';
import { describeError, serializeError } from '../contracts/serialized-error.js';
import type { ProbeFault } from '../model/fault-kinds.js';
import type { Availability } from '../model/host-types.js';
import { describeLeafValue } from '../runtime/describe-leaf-value.js';
import type { TagWorkers } from './threads/tag-workers.js';
import { borrowForCall, describeFailedReply, type CallOutcome, type ThreadCall } from './threads/bounded-call.js';
import { validateToolRegistry } from '../discovery/tool-registry.js';

/** What probing one tag at boot found: its verdict and, when the leaf loaded, its declared channels and tool family. */
export interface ProbeOutcome {
  readonly verdict: Availability;
  readonly channels?: Readonly<Record<string, ChannelDecl>>;
  readonly defaultChannel?: string;
  /** The validated exact tool family, when the executor defines `toolRegistry()`. */
  readonly toolRegistry?: RuntimeToolRegistry;
}

/** Timing and bounds of boot probes. */
export interface ProbeOptions {
  readonly probeTimeoutMs: number;
  /** How long the leaf may take to load before the probe starts. */
  readonly loadTimeoutMs: number;
  readonly graceMs: number;
  /** Bound on leaf text entering a verdict detail. */
  readonly detailLimit: number;
  /** Told each verdict as it arrives. */
  readonly onProbe?: ((tag: string, verdict: Availability) => void) | undefined;
}

/**
 * Loads the leaf in one of the tag's threads and probes it. The timeout starts when `probe()`
 * starts in the thread, so thread start-up and import on a busy machine do not count against
 * it (loading has its own bound, `loadTimeoutMs`). A probe that rejects, overruns or returns nonsense
 * makes only this tag unavailable; its thread is retired and the groups it started reaped.
 */
export async function probeTag(tag: string, workers: TagWorkers, options: ProbeOptions): Promise<ProbeOutcome> {
  return judgeProbeCall(await borrowForCall(workers, probeCall(options)), tag, options);
}

/** The bounded call of one probe; `as` names another tag of the thread's package to probe instead of its own. */
export function probeCall(options: ProbeOptions, as?: ProbeIdentity): ThreadCall {
  return {
    task: (id, marker) => (as === undefined ? { kind: 'probe', id, marker } : { kind: 'probe', id, marker, as }),
    name: 'probe',
    timeoutMs: options.probeTimeoutMs,
    overrun: `probe exceeded ${options.probeTimeoutMs}ms`,
    loadTimeoutMs: options.loadTimeoutMs,
    alwaysAnnounce: true,
    graceMs: options.graceMs,
  };
}

/** Tag `tag`'s boot verdict from how its probe call ended. */
export function judgeProbeCall(call: CallOutcome, tag: string, options: ProbeOptions): ProbeOutcome {
  const probeMs = call.callMs;
  if (call.kind === 'reply') return judgeProbe(call.reply, probeMs, options.detailLimit, tag);
  const fault = call.kind === 'died' ? 'thread-died' : call.kind === 'load-timeout' ? 'load-timeout' : 'probe-timeout';
  return { verdict: { available: false, fault, detail: call.detail, probeMs } };
}

function judgeProbe(reply: TaskReply, probeMs: number, detailLimit: number, tag: string): ProbeOutcome {
  const unavailable = (fault: ProbeFault, detail: string): ProbeOutcome => ({
    verdict: { available: false, fault, detail: ErrorDetail.preview(detail, detailLimit), probeMs },
  });
  if (!reply.ok) {
    const fault = isLoadStage(reply.stage)
      ? LOAD_FAULTS[reply.stage]
      : reply.stage === 'reply'
        ? 'invalid-reply'
        : 'probe-threw';
    return unavailable(fault, describeFailedReply(reply, 'probe', 'answered'));
  }
  // The reply crossed from the thread unvalidated: read its fields only from an object.
  const report = (typeof reply.value === 'object' && reply.value !== null ? reply.value : {}) as Partial<ProbeReport>;
  const channels = v.safeParse(ChannelDeclsSchema, report.channels);
  if (!channels.success)
    return unavailable(
      'invalid-channels',
      `the executor declares invalid channels: ${channels.issues.map(describeIssue).join('; ')}`,
    );
  if (typeof report.defaultChannel !== 'string' || !Object.hasOwn(channels.output, report.defaultChannel)) {
    return unavailable(
      'invalid-channels',
      `the executor's defaultChannel ${describeLeafValue(report.defaultChannel)} is not a declared channel`,
    );
  }
  const availability = v.safeParse(RuntimeAvailabilitySchema, report.availability);
  if (!availability.success)
    return unavailable(
      'invalid-verdict',
      `probe returned an invalid verdict: ${availability.issues.map(describeIssue).join('; ')}`,
    );
  let toolRegistry: RuntimeToolRegistry | undefined;
  if (report.toolRegistry !== undefined) {
    try {
      toolRegistry = validateToolRegistry(report.toolRegistry, { runtime: tag });
    } catch (error) {
      return unavailable('invalid-tool-registry', describeError(serializeError(error)));
    }
  }
  const { available, detail } = availability.output;
  const verdict: Availability =
    detail === undefined
      ? { available, probeMs }
      : { available, detail: ErrorDetail.preview(detail, detailLimit), probeMs };
  return {
    verdict,
    channels: channels.output,
    defaultChannel: report.defaultChannel,
    ...(toolRegistry ? { toolRegistry } : {}),
  };
}

const LOAD_FAULTS: Record<Extract<FailureStage, 'import' | 'construct'>, ProbeFault> = {
  import: 'import-failed',
  construct: 'constructor-threw',
};

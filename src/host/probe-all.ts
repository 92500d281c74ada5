import pTimeout, { TimeoutError } from 'p-timeout';
import * as v from 'valibot';
import { ChannelDeclsSchema, type ChannelDecl } from '../contracts/channels.js';
import { RuntimeAvailabilitySchema } from '../contracts/effect.js';
import { ErrorDetail } from '../contracts/error-detail.js';
import type { ProbeReport, TaskReply } from '../contracts/protocol.js';
import { describeIssue } from '../contracts/result.js';
import type { RuntimeToolRegistry } from '../contracts/invocation.js';
import { describeError, serializeError } from '../contracts/serialized-error.js';
import { openControlPort } from './ports/control-port.js';
import type { Availability } from './host-types.js';
import { reapGroups } from './threads/reaper.js';
import { describeLeafValue } from '../runtime/describe-leaf-value.js';
import type { TagWorkers } from './threads/tag-workers.js';
import { validateToolRegistry } from '../discovery/tool-registry.js';

/** A tag's boot outcome: its verdict and, when it loaded, its declared channels. */
export interface TagBoot {
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
  readonly limit: number;
  /** Told each verdict as it arrives. */
  readonly onProbe?: ((tag: string, verdict: Availability) => void) | undefined;
}

/** Probes every tag concurrently, each under its own timeout (§executor-probe). Never rejects. */
export async function probeAll(
  tags: ReadonlyMap<string, TagWorkers>,
  options: ProbeOptions,
): Promise<Map<string, TagBoot>> {
  const entries = await Promise.all(
    [...tags].map(async ([tag, workers]) => {
      const boot = await probeTag(tag, workers, options);
      try {
        options.onProbe?.(tag, boot.verdict);
      } catch {
        // Progress reporting must never change a boot.
      }
      return [tag, boot] as const;
    }),
  );
  return new Map(entries);
}

/**
 * Loads the leaf in one of the tag's threads and probes it. The timeout starts when `probe()`
 * starts in the thread, so thread start-up and import on a busy machine do not count against
 * it (loading has its own bound, `loadTimeoutMs`). A probe that rejects, overruns or returns nonsense
 * makes only this tag unavailable; its thread is retired and the groups it started reaped.
 */
export async function probeTag(tag: string, workers: TagWorkers, options: ProbeOptions): Promise<TagBoot> {
  const handle = workers.acquire('call');
  const control = openControlPort();
  let poisoned = false;
  // Latency counts from the moment probe() starts; a leaf that never loaded has none.
  let startedAt: number | undefined;
  void control.started.then(() => (startedAt = performance.now()));
  try {
    const task = handle.post({ kind: 'probe', control: control.workerPort }, [control.workerPort]);
    await pTimeout(Promise.race([control.started, task]), {
      milliseconds: options.loadTimeoutMs,
      message: `the leaf did not load within loadTimeoutMs ${options.loadTimeoutMs}ms`,
    });
    const reply = await pTimeout(task, {
      milliseconds: options.probeTimeoutMs,
      message: `probe exceeded ${options.probeTimeoutMs}ms`,
    });
    return judgeProbe(reply, elapsed(startedAt), options.limit, tag);
  } catch (error) {
    poisoned = true;
    // Ask the probe to reap its own work; the thread is terminated and its groups reaped below regardless.
    control.abort(new DOMException('the probe timed out', 'TimeoutError'));
    const detail =
      error instanceof TimeoutError
        ? error.message
        : `the worker thread died while probing: ${handle.deathReason ?? String(error)}`;
    return { verdict: { available: false, detail, probeMs: elapsed(startedAt) } };
  } finally {
    control.close();
    await workers.release(handle, { ranRun: false, poisoned });
    await reapGroups(control.groups, options.graceMs);
  }
}

function judgeProbe(reply: TaskReply, probeMs: number, limit: number, tag: string): TagBoot {
  const unavailable = (detail: string): TagBoot => ({
    verdict: { available: false, detail: ErrorDetail.preview(detail, limit), probeMs },
  });
  if (!reply.ok) {
    if (reply.stage === 'load') return unavailable(`the leaf could not be loaded: ${describeError(reply.error)}`);
    if (reply.stage === 'reply')
      return unavailable(`probe answered a value that cannot cross the thread: ${describeError(reply.error)}`);
    return unavailable(`probe threw: ${describeError(reply.error)}`);
  }
  // The reply crossed from the thread unvalidated: read its fields only from an object.
  const report = (typeof reply.value === 'object' && reply.value !== null ? reply.value : {}) as Partial<ProbeReport>;
  const channels = v.safeParse(ChannelDeclsSchema, report.channels);
  if (!channels.success)
    return unavailable(`the executor declares invalid channels: ${channels.issues.map(describeIssue).join('; ')}`);
  if (typeof report.defaultChannel !== 'string' || !Object.hasOwn(channels.output, report.defaultChannel)) {
    return unavailable(
      `the executor's defaultChannel ${describeLeafValue(report.defaultChannel)} is not a declared channel`,
    );
  }
  const availability = v.safeParse(RuntimeAvailabilitySchema, report.availability);
  if (!availability.success)
    return unavailable(`probe returned an invalid verdict: ${availability.issues.map(describeIssue).join('; ')}`);
  let toolRegistry: RuntimeToolRegistry | undefined;
  if (report.toolRegistry !== undefined) {
    try {
      toolRegistry = validateToolRegistry(report.toolRegistry, { runtime: tag });
    } catch (error) {
      return unavailable(describeError(serializeError(error)));
    }
  }
  const { available, detail } = availability.output;
  const verdict: Availability =
    detail === undefined ? { available, probeMs } : { available, detail: ErrorDetail.preview(detail, limit), probeMs };
  return {
    verdict,
    channels: channels.output,
    defaultChannel: report.defaultChannel,
    ...(toolRegistry ? { toolRegistry } : {}),
  };
}

function elapsed(since: number | undefined): number {
  return since === undefined ? 0 : Math.round(performance.now() - since);
}

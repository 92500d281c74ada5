import type { Effect } from '../contracts/effect.js';
import type { RuntimeToolRegistry } from '../contracts/invocation.js';
import { ErrorDetail } from '../contracts/error-detail.js';
import { PlurnkExecsError } from '../contracts/errors.js';
import type { Discovery } from '../contracts/registry.js';
import { admit, unusableTag, type Admission } from './dispatch/admit.js';
import { borrowEffect } from './dispatch/call-effect.js';
import type { CrashBreaker } from '../model/crash-breaker.js';
import type { ParsedExecRequest } from '../model/exec-request.js';
import { executeRun } from './dispatch/execute-run.js';
import type { Availability, ExecOutcome, Isolation } from '../model/host-types.js';
import type { ResolvedHostOptions } from '../model/host-options.js';
import { hostFailure } from '../model/host-problems.js';
import { classifyOutcome } from '../model/outcome-class.js';
import { degradedFailure, hostClosedError, refusedOutcome } from '../model/refusal.js';
import type { TierStats } from '../model/observe/host-stats.js';
import type { RunTrace, Tier } from '../model/tier.js';
import { HostMemoryWatch } from './threads/memory-watchdog.js';
import { SharedTicker } from '../runtime/shared-ticker.js';
import type { ProbeOutcome } from './probe-all.js';
import { reapGroups, reapRun } from './threads/reaper.js';
import { RunStream } from './ports/run-stream.js';
import type { TagWorkers } from './threads/tag-workers.js';
import { withLease, type Lease } from './threads/bounded-call.js';
import { queueFailure } from './dispatch/queue-failure.js';
import { QueueWatch } from '../model/observe/queue-watch.js';
import { threadTierStats } from './tier-stats.js';

/** One registered tag after boot: its threads (closed when unavailable) and what its probe found. */
export interface BootedTag {
  readonly workers: TagWorkers;
  readonly probe: ProbeOutcome;
}

/**
 * The thread tier (docs/isolation.md): the leaves' threads in this process. Owns the tags'
 * threads and their crash-loop breaker; dispatch, run mechanics and reaping live in their own
 * files. The front door (src/host) validates, tracks and refuses; the closing signal it gave
 * at boot ends every run in flight here.
 */
export class ThreadTier implements Tier {
  private readonly available: string[];
  private readonly memory: HostMemoryWatch;
  /** Holds the loop while a run is watched, as each run's own interval did. */
  private readonly heartbeats: SharedTicker;
  private readonly queue = new QueueWatch();

  constructor(
    readonly discovery: Discovery,
    private readonly tags: ReadonlyMap<string, BootedTag>,
    private readonly options: Omit<ResolvedHostOptions, 'permissions' | 'engines'>,
    private readonly detailLimit: number,
    private readonly breaker: CrashBreaker,
    /** Aborted when the host closes: runs in flight settle 499 at once, waits for threads end. */
    private readonly closing: AbortSignal,
  ) {
    this.available = [...tags]
      .filter(([, tag]) => tag.probe.verdict.available)
      .map(([name]) => name)
      .sort();
    const { rssMb, heartbeatMs } = options.limits;
    this.memory = new HostMemoryWatch(rssMb, heartbeatMs, 2 * heartbeatMs);
    this.heartbeats = new SharedTicker(heartbeatMs, true);
  }

  availability(tag: string): Availability | undefined {
    const verdict = this.tags.get(tag)?.probe.verdict;
    if (verdict === undefined) return undefined;
    const degraded = this.breaker.degradation(tag);
    return degraded === undefined ? { ...verdict } : { ...verdict, degraded: { ...degraded } };
  }

  availableRuntimes(): string[] {
    return [...this.available];
  }

  toolRegistry(tag: string): RuntimeToolRegistry | undefined {
    const booted = this.tags.get(tag);
    return booted?.probe.verdict.available ? booted.probe.toolRegistry : undefined;
  }

  isolation(): Isolation {
    return { tier: 'thread', pidNamespace: false, permissionModel: false };
  }

  async stats(): Promise<TierStats> {
    return threadTierStats(this.tags, this.breaker, this.queue);
  }

  async close(settled: Promise<void>): Promise<void> {
    await settled;
    await Promise.all([...this.tags.values()].map((tag) => tag.workers.close()));
  }

  /** host.effect: the fact from an available thread of the tag, or a named error. */
  async effect(tag: string, target: string | null): Promise<Effect> {
    const booted = this.usable(tag);
    const call = await borrowEffect(booted.workers, target, this.effectOptions());
    if (call.ok) return call.effect;
    if (this.closing.aborted) throw hostClosedError();
    throw new PlurnkExecsError('effect-failed', `${tag}: ${ErrorDetail.preview(call.detail, this.detailLimit)}`);
  }

  /** Admission, effect, then the run in a thread of its own; every path ends in one outcome. */
  async run(request: ParsedExecRequest, trace?: RunTrace): Promise<ExecOutcome> {
    const admission = admit(
      request,
      this.discovery,
      (tag) => this.availability(tag),
      this.available,
      this.detailLimit,
      (tag) => this.toolRegistry(tag),
    );
    if (!admission.ok) return refusedOutcome(admission.result);
    const tag = request.runtime;
    const degraded = this.breaker.degradation(tag);
    if (degraded !== undefined) {
      const crashed = `its worker threads crashed ${degraded.crashes} time(s) within the breaker window`;
      return refusedOutcome(degradedFailure(tag, degraded, crashed, this.detailLimit));
    }
    const booted = this.tags.get(tag)!;
    // A run with no idle thread waits in the admission queue for its thread to start; the caller's
    // abort or the host closing ends the wait (no thread is started), and so does the queue bound.
    const wait = { signals: [request.signal, this.closing], timeoutMs: this.options.admission.queueTimeoutMs };
    const leave = this.queue.enter(tag, trace);
    const use = (lease: Lease) => (leave(), this.runIn(lease, booted, request, admission));
    return withLease(booted.workers, 'run', use, wait).catch((error: unknown) => {
      leave();
      const failure = queueFailure(error, tag, this.closing, wait.timeoutMs, this.detailLimit);
      if (failure === undefined) throw error;
      return refusedOutcome(failure);
    });
  }

  /** The EXEC in its leased thread: the run (with its effect() first, unless given), its reap. */
  private async runIn(
    lease: Lease,
    booted: BootedTag,
    request: ParsedExecRequest,
    admission: Extract<Admission, { ok: true }>,
  ): Promise<ExecOutcome> {
    const { handle } = lease;
    const tag = request.runtime;
    let groups: ReadonlySet<number> = new Set();
    let release = () => {};
    try {
      if (this.closing.aborted)
        return refusedOutcome(hostFailure('execution-cancelled', 'the host closed before the run started'));
      const stream = new RunStream(booted.probe.channels!, request.sinks, this.options.limits);
      // The thread counts as used, and as suspect, from the moment the run is posted: whatever
      // happens in the await, it is never handed to another run under 'each-run'.
      lease.ranRun = true;
      lease.poisoned = true;
      const end = await executeRun({
        handle,
        request: {
          runtime: tag,
          body: request.body,
          cwd: admission.cwd,
          target: admission.target,
          hasEntry: request.sinks?.entry !== undefined,
          ...(request.env ? { env: request.env } : {}),
        },
        stream,
        sinks: request.sinks,
        signal: request.signal,
        timeoutMs: request.timeoutMs,
        detailLimit: this.detailLimit,
        closing: this.closing,
        limits: this.options.limits,
        loadTimeoutMs: this.options.loadTimeoutMs,
        memory: this.memory,
        heartbeats: this.heartbeats,
        // The effect is an admission fact taken once: a service that took it at proposal time passes
        // it; otherwise effect() is called first in the run's own task (folded-effect.ts).
        ...(request.effect === undefined ? { foldEffect: { timeoutMs: this.options.probeTimeoutMs } } : {}),
      });
      lease.poisoned = end.poisoned;
      // A folded effect() that refused the EXEC: run() never ran, so the thread counts as unused.
      if (end.effect?.refused === true) {
        lease.ranRun = false;
        groups = end.groups;
        release = end.release;
        return refusedOutcome(end.result);
      }
      groups = end.groups;
      release = end.release;
      if (end.crash !== undefined) this.breaker.record(tag, end.crash);
      else if (!end.poisoned) this.breaker.succeeded(tag);
      stream.seal();
      stream.finish(end.result.status);
      // The marker is looked for when the run started a group or ended badly (a thread blocked in execSync reports none).
      const swept =
        end.groups.size > 0 || end.refusedGroups > 0 || end.poisoned
          ? { groups: end.groups, marker: end.marker, since: end.since, firstPid: end.firstGroup }
          : { groups: end.groups };
      // A process the host may not signal (EPERM) is skipped by the sweep; nothing in it makes exec() reject.
      // A run that reported no group and is not swept for its marker left nothing to look for.
      const reaped =
        swept.marker === undefined && end.groups.size === 0
          ? { found: 0, survivors: [] }
          : await reapRun(swept, this.options.limits.graceMs).catch(() => undefined);
      // The sweep looked until nothing of the run lived: unless something survived it, the reap below has nothing to do.
      if (reaped?.survivors.length === 0) groups = new Set();
      const reapedProcesses = reaped?.found ?? 0;
      const address = request.address
        ? `${tag}:///${request.address.loop}/${request.address.turn}/${request.address.sequence}`
        : null;
      const containment = { console: end.console, reapedProcesses, forcedEnd: end.forcedEnd, usage: end.usage };
      return {
        outcome: classifyOutcome(end.result, end.forcedEnd),
        result: end.result,
        effect: end.effect === undefined ? (request.effect ?? null) : end.effect.effect,
        address,
        channels: stream.channels,
        notices: stream.notices,
        violations: stream.violations,
        containment,
      };
    } finally {
      // Reaped here too, so no path out of the run leaves its groups alive (a second reap of a gone group is a no-op).
      if (groups.size > 0) await reapGroups(groups, this.options.limits.graceMs).catch(() => {});
      // Only now does the run own nothing: the engine's namespace sweep may take what is left.
      release();
    }
  }

  /** The booted tag behind `host.effect`, or a named error saying why there is none. */
  private usable(tag: string): BootedTag {
    const booted = this.tags.get(tag);
    if (booted?.probe.verdict.available) return booted;
    throw unusableTag(tag, this.discovery, booted?.probe.verdict);
  }

  /** effect() is bounded like a probe: it must be cheap. */
  private effectOptions() {
    return {
      timeoutMs: this.options.probeTimeoutMs,
      loadTimeoutMs: this.options.loadTimeoutMs,
      graceMs: this.options.limits.graceMs,
      closing: this.closing,
    };
  }
}

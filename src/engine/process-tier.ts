import type { Effect } from '../contracts/effect.js';
import { PlurnkExecsError } from '../contracts/errors.js';
import type { RuntimeToolRegistry } from '../contracts/invocation.js';
import type { Discovery } from '../contracts/registry.js';
import { explainMissingTag } from '../discovery/known-leaves.js';
import { CrashBreaker } from '../model/crash-breaker.js';
import type { ParsedExecRequest } from '../model/exec-request.js';
import type { ResolvedHostOptions } from '../model/host-options.js';
import { hostFailure } from '../model/host-problems.js';
import type { Availability, ExecOutcome, Isolation } from '../model/host-types.js';
import { refusedOutcome } from '../model/refusal.js';
import type { TierStats } from '../model/observe/host-stats.js';
import type { RunTrace, Tier } from '../model/tier.js';
import { admit, resolveErrorDetailLimit, unusableTag } from '../thread-host/index.js';
import { groupEngines } from './engine-groups.js';
import { EngineLane } from './engine-lane.js';
import { summarizeIsolation } from './isolation-summary.js';

/**
 * Boots the process tier over `discovery`: an engine process per leaf package (or per group of
 * packages the service shares, `engines.shared`), started concurrently, each running the thread
 * tier over its own packages; this object, in the service, is the tier the front door drives.
 * Its answers are the thread tier's; what differs is that a leaf reaches nothing of the service,
 * nor of another package's runs. `closing` is the host's. Rejects as the thread tier's boot does
 * (`boot-failed`, …) when an engine cannot boot, after closing every engine it started.
 */
export async function bootProcessTier(
  discovery: Discovery,
  resolved: ResolvedHostOptions,
  closing: AbortSignal,
): Promise<Tier> {
  const detailLimit = await resolveErrorDetailLimit(discovery.env ?? {});
  const tier = new ProcessTier(discovery, resolved, detailLimit, closing);
  await tier.start();
  return tier;
}

/**
 * The process tier in the service: routes each tag's runs and `effect()` calls to the lane of
 * the engine that holds it (engine-lane.ts), merges the lanes' views, and answers for what no
 * engine serves (a tag not registered, disabled, or of a package whose every tag is
 * unavailable) as the thread tier would.
 */
class ProcessTier implements Tier {
  private readonly lanes: EngineLane[];
  private readonly laneOf = new Map<string, EngineLane>();

  constructor(
    readonly discovery: Discovery,
    private readonly resolved: ResolvedHostOptions,
    private readonly detailLimit: number,
    closing: AbortSignal,
  ) {
    const context = { discovery, resolved, detailLimit, closing, breaker: new CrashBreaker(resolved.breaker) };
    this.lanes = groupEngines(discovery.registry, resolved.engines.shared).map(
      (group) => new EngineLane(group, context),
    );
    for (const lane of this.lanes) for (const tag of lane.tags) this.laneOf.set(tag, lane);
  }

  /** Boots every engine at once; the first failure (in engine order) closes the others and rejects. */
  async start(): Promise<void> {
    const wanted = this.resolved.defaultRuntime;
    // The engine that serves it refuses to boot when it is unavailable; one no engine serves, here.
    if (wanted !== undefined && !this.laneOf.has(wanted)) {
      const why = explainMissingTag(wanted, this.discovery.searched ?? []);
      throw new PlurnkExecsError(
        'boot-failed',
        `the default runtime ${JSON.stringify(wanted)} is not registered: ${why}`,
      );
    }
    const booted = await Promise.allSettled(this.lanes.map((lane) => lane.start()));
    const failed = booted.find((result) => result.status === 'rejected');
    if (failed === undefined) return;
    await this.closeLanes();
    throw failed.reason;
  }

  availability(tag: string): Availability | undefined {
    return this.laneOf.get(tag)?.availability(tag);
  }

  availableRuntimes(): string[] {
    return this.lanes.flatMap((lane) => lane.available()).sort();
  }

  toolRegistry(tag: string): RuntimeToolRegistry | undefined {
    return this.laneOf.get(tag)?.toolRegistry(tag);
  }

  isolation(): Isolation {
    return summarizeIsolation(this.lanes.filter((lane) => lane.serving).map((lane) => lane.isolation()));
  }

  /**
   * Every tag's facts and every engine's entry: each serving engine's thread tier asked at once
   * (one bounded round trip), a retired engine's tags from the service's own view alone.
   */
  async stats(): Promise<TierStats> {
    const answers = await Promise.all(this.lanes.map((lane) => lane.stats()));
    return {
      tags: Object.assign({}, ...answers.map((answer) => answer.tags)),
      engines: answers.map((answer) => answer.engine),
    };
  }

  /** The engines end first (their thread tiers settle what they run), then what is in flight here. */
  async close(settled: Promise<void>): Promise<void> {
    await this.closeLanes();
    await settled;
  }

  run(request: ParsedExecRequest, trace?: RunTrace): Promise<ExecOutcome> {
    const lane = this.laneOf.get(request.runtime);
    return lane?.serving ? lane.run(request, trace) : Promise.resolve(this.refuse(request));
  }

  effect(tag: string, target: string | null): Promise<Effect> {
    const lane = this.laneOf.get(tag);
    if (lane?.serving) return lane.effect(tag, target);
    return Promise.reject(unusableTag(tag, this.discovery, this.availability(tag)));
  }

  /** A run of a tag no engine serves: refused by the thread tier's own admission, over this tier's view. */
  private refuse(request: ParsedExecRequest): ExecOutcome {
    const admission = admit(
      request,
      this.discovery,
      (tag) => this.availability(tag),
      this.availableRuntimes(),
      this.detailLimit,
      (tag) => this.toolRegistry(tag),
    );
    // Admission refuses every such tag; this only keeps the type honest.
    return refusedOutcome(
      admission.ok ? hostFailure('runtime-unavailable', `runtime ${request.runtime} is not served`) : admission.result,
    );
  }

  private async closeLanes(): Promise<void> {
    await Promise.all(this.lanes.map((lane) => lane.close(this.resolved.limits.graceMs)));
  }
}

import type { Effect } from '../contracts/effect.js';
import { ErrorDetail } from '../contracts/error-detail.js';
import { PlurnkExecsError } from '../contracts/errors.js';
import type { RuntimeToolRegistry } from '../contracts/invocation.js';
import type { Discovery } from '../contracts/registry.js';
import { CrashBreaker } from '../model/crash-breaker.js';
import type { ParsedExecRequest } from '../model/exec-request.js';
import type { EngineDeathCause } from '../model/fault-kinds.js';
import type { ResolvedHostOptions } from '../model/host-options.js';
import { hostFailure } from '../model/host-problems.js';
import type { Availability, ExecOutcome, Isolation } from '../model/host-types.js';
import { degradedFailure, hostClosedError, refusedOutcome } from '../model/refusal.js';
import type { TierStats } from '../model/observe/host-stats.js';
import type { RunTrace, Tier } from '../model/tier.js';
import { resolveErrorDetailLimit } from '../thread-host/index.js';
import { engineCommand } from './engine-command.js';
import { buildEngineDiscovery, buildEngineEnv } from './engine-env.js';
import { engineFrameBytes, engineWaitMs } from './engine-limits.js';
import type { EngineHostOptions, EngineMessage, EngineState } from './engine-protocol.js';
import { EngineProcess, type EngineEnd } from './engine-process.js';
import { EngineObserver, processTagStats } from './engine-observe.js';
import { describeEngine } from './engine-stats.js';
import { EngineSupervisor } from './engine-supervisor.js';
import { pidNamespaceId } from './namespace-init.js';
import { RunRelay } from './run-relay.js';
import { rebuildWireError } from './wire-error.js';

/**
 * Boots the process tier over `discovery`: one engine process runs the thread tier, and this
 * object, in the service, is the tier the front door drives. Its answers are the thread tier's;
 * what differs is that a leaf reaches nothing of the service. `closing` is the host's. Rejects
 * as the thread tier's boot does (`boot-failed`, …) when the first engine cannot boot.
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

class ProcessTier implements Tier {
  private readonly supervisor: EngineSupervisor;
  private readonly relays = new Map<number, RunRelay>();
  private readonly effects = new Map<number, { resolve(effect: Effect): void; reject(error: Error): void }>();
  private readonly breaker: CrashBreaker;
  /** Observing the engine: its events, its stats, the runs waiting for it (engine-observe.ts). */
  private readonly observe: EngineObserver;
  /** How long each run in flight waited in the engine for its thread, as its outcome frame said. */
  private readonly queueWaits = new Map<number, number>();
  private readonly packages: string[];
  private state: EngineState = { availability: {}, available: [], toolRegistries: {} };
  private stateAt = Date.now();
  private nextId = 0;

  constructor(
    readonly discovery: Discovery,
    private readonly resolved: ResolvedHostOptions,
    private readonly detailLimit: number,
    private readonly closing: AbortSignal,
  ) {
    this.breaker = new CrashBreaker(resolved.breaker);
    this.packages = [...new Set([...discovery.registry.values()].map((entry) => entry.packageName))].sort();
    const { fsWrite, addons, network } = resolved.permissions;
    const sandbox = { fsWrite, network, memoryMb: resolved.limits.engineMemoryMb, pids: resolved.limits.enginePids };
    this.supervisor = new EngineSupervisor({
      spawn: (onMessage, onDeath) =>
        new EngineProcess(
          engineCommand(fsWrite, addons, sandbox),
          buildEngineEnv(process.env, detailLimit),
          engineFrameBytes(resolved.limits),
          onMessage,
          onDeath,
        ),
      boot: {
        t: 'boot',
        discovery: buildEngineDiscovery(discovery, detailLimit),
        options: engineOptions(resolved),
        heartbeatMs: resolved.limits.heartbeatMs,
        servicePidNamespace: pidNamespaceId(),
      },
      onMessage: (message) => this.receive(message),
      onBooted: (state) => this.setState(state),
      onProbe: (tag, availability) => {
        try {
          resolved.onProbe?.(tag, availability);
        } catch {
          // A throwing onProbe is ignored, as in the thread tier.
        }
      },
      onDeath: (why, end, cause) => this.engineDied(why, end, cause),
      bootWaitMs: engineWaitMs(resolved),
      // The engine's main thread keeps the thread tier's pace: a heartbeat per period, and the same silence bound.
      heartbeatMs: resolved.limits.heartbeatMs,
      unresponsiveMs: resolved.limits.unresponsiveMs,
      packages: this.packages,
      runsInFlight: () => this.relays.size,
    });
    this.observe = new EngineObserver(new Set(discovery.registry.keys()), () => this.supervisor.current());
  }

  start(): Promise<void> {
    return this.supervisor.start();
  }

  availability(tag: string): Availability | undefined {
    const snapshot = this.state.availability[tag];
    if (snapshot === undefined) return undefined;
    const { degraded: engineDegraded, ...verdict } = snapshot;
    // The engine's breaker spoke when the snapshot was taken: its cool-down has run on since.
    const elapsed = Date.now() - this.stateAt;
    const fromEngine =
      engineDegraded !== undefined && engineDegraded.retryInMs > elapsed
        ? { ...engineDegraded, retryInMs: engineDegraded.retryInMs - elapsed }
        : undefined;
    const degraded = this.breaker.degradation(tag) ?? fromEngine;
    return degraded === undefined ? verdict : { ...verdict, degraded };
  }

  availableRuntimes(): string[] {
    return [...this.state.available];
  }

  toolRegistry(tag: string): RuntimeToolRegistry | undefined {
    return this.state.toolRegistries[tag] as RuntimeToolRegistry | undefined;
  }

  isolation(): Isolation {
    return { tier: 'process', ...this.supervisor.containment() };
  }

  /** Every tag's thread-tier facts, asked of the engine (none while it restarts), and the engine. */
  async stats(): Promise<TierStats> {
    const engine = this.supervisor.current();
    const inside = engine === undefined ? undefined : await this.observe.ask(engine);
    const tags = processTagStats(this.discovery.registry.keys(), inside, this.breaker, this.observe.waiting);
    return { tags, engines: [describeEngine(this.supervisor.facts(), this.packages)] };
  }

  /** The engine ends first (its thread tier settles what it runs), then what is in flight here. */
  async close(settled: Promise<void>): Promise<void> {
    this.observe.close();
    await this.supervisor.close(this.resolved.limits.graceMs);
    await settled;
  }

  async run(request: ParsedExecRequest, trace?: RunTrace): Promise<ExecOutcome> {
    const tag = request.runtime;
    const degraded = this.breaker.degradation(tag);
    if (degraded !== undefined && this.state.availability[tag]?.available) {
      const crashed = `its engine process died ${degraded.crashes} time(s) within the breaker window while it alone ran`;
      return refusedOutcome(degradedFailure(tag, degraded, crashed, this.detailLimit));
    }
    const leave = this.observe.waiting.enter(tag, trace);
    const engine = await this.supervisor.ready().finally(leave);
    if (this.closing.aborted)
      return refusedOutcome(hostFailure('execution-cancelled', 'the host closed before the run started'));
    if (engine === undefined) return unavailable(this.detailLimit, this.supervisor.lastDeath);
    this.observe.sync(engine);
    const id = this.nextId++;
    const relay = new RunRelay(id, tag, request, engine, this.detailLimit, engineFrameBytes(this.resolved.limits));
    this.relays.set(id, relay);
    relay.begin();
    try {
      const outcome = await relay.settled;
      if (!ENGINE_ENDS.has(outcome.containment?.forcedEnd?.reason ?? '')) {
        this.supervisor.succeeded();
        // A clean run ends the tag's probation after a cool-down, as in the thread tier.
        this.breaker.succeeded(tag);
      }
      // The wait for the engine, and in it for a thread; a run the engine refused before it queued waited for none.
      const inEngine = this.queueWaits.get(id);
      if (trace !== undefined && inEngine !== undefined) trace.queueMs = leave() + inEngine;
      else if (trace !== undefined && outcome.outcome === 'refused') delete trace.queueMs;
      return outcome;
    } finally {
      this.relays.delete(id);
      this.queueWaits.delete(id);
    }
  }

  async effect(tag: string, target: string | null): Promise<Effect> {
    const engine = await this.supervisor.ready();
    if (this.closing.aborted) throw hostClosedError();
    if (engine === undefined) throw new PlurnkExecsError('effect-failed', `${tag}: the engine process is restarting`);
    const id = this.nextId++;
    return new Promise<Effect>((resolve, reject) => {
      this.effects.set(id, { resolve, reject });
      engine.send({ t: 'effect', id, tag, target });
    }).finally(() => this.effects.delete(id));
  }

  /** Every validated frame after boot: sink calls and outcomes go to their run, effects to their caller. */
  private receive(message: EngineMessage): void {
    switch (message.t) {
      case 'sinks':
        // In the engine's order, across runs; a run that ended (or an engine that failed) takes no more.
        for (const [id, call] of message.calls) this.relays.get(id)?.sink(call);
        return;
      case 'sink-request':
      case 'exec-error':
        return this.relays.get(message.id)?.receive(message);
      case 'outcome':
        if (message.state !== undefined) this.setState(message.state);
        if (message.queueMs !== undefined && this.relays.has(message.id))
          this.queueWaits.set(message.id, message.queueMs);
        return this.relays.get(message.id)?.receive(message);
      case 'stats':
      case 'event':
        return this.observe.receive(message, this.supervisor.current());
      case 'effect':
        return this.effects.get(message.id)?.resolve(message.effect);
      case 'effect-error':
        return this.effects.get(message.id)?.reject(rebuildWireError(message.error, 'effect-failed'));
      default:
        return;
    }
  }

  /**
   * Every run in flight settles 500 (`engine-crashed`, or `engine-unresponsive` when the
   * watchdog killed it); a death with one run in flight is charged to its tag.
   */
  private engineDied(why: string, end: EngineEnd, cause?: EngineDeathCause): void {
    const relays = [...this.relays.values()];
    if (relays.length === 1 && !this.closing.aborted)
      this.breaker.record(relays[0]!.tag, `the engine process died: ${why}`);
    for (const relay of relays) {
      if (this.closing.aborted) relay.settleClosed();
      else relay.settleCrashed(why, end, cause);
    }
    for (const effect of this.effects.values())
      effect.reject(new PlurnkExecsError('effect-failed', `the engine process died: ${why}`));
  }

  private setState(state: EngineState): void {
    this.state = state;
    this.stateAt = Date.now();
  }
}

/** How a run ends when its engine did: not a clean run, so the restart backoff is not reset. */
const ENGINE_ENDS: ReadonlySet<string> = new Set<EngineEnd>(['engine-crashed', 'engine-unresponsive']);

/** The resolved options the engine's thread tier takes: all but the function and the engine's own permissions. */
function engineOptions(resolved: ResolvedHostOptions): EngineHostOptions {
  const { onProbe: _p, permissions: _m, ...rest } = resolved;
  return structuredClone(rest);
}

function unavailable(detailLimit: number, lastDeath: string | undefined): ExecOutcome {
  const detail = `the engine process is restarting and did not come back in time${lastDeath ? ` (it died: ${lastDeath})` : ''}`;
  return refusedOutcome(hostFailure('engine-unavailable', ErrorDetail.preview(detail, detailLimit)));
}

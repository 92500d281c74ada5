import type { Effect } from '../contracts/effect.js';
import { ErrorDetail } from '../contracts/error-detail.js';
import { PlurnkExecsError } from '../contracts/errors.js';
import type { RuntimeToolRegistry } from '../contracts/invocation.js';
import type { Discovery } from '../contracts/registry.js';
import type { CrashBreaker } from '../model/crash-breaker.js';
import type { ParsedExecRequest } from '../model/exec-request.js';
import type { ResolvedHostOptions } from '../model/host-options.js';
import { hostFailure } from '../model/host-problems.js';
import type { Availability, EngineIsolation, ExecOutcome } from '../model/host-types.js';
import { degradedFailure, hostClosedError, refusedOutcome } from '../model/refusal.js';
import { sinkCallBytes } from './crashed-run.js';
import { engineCommand } from './engine-command.js';
import { buildEngineDiscovery, buildEngineEnv } from './engine-env.js';
import { engineLabel, type EngineGroup } from './engine-groups.js';
import { effectDeadlineMs, engineFrameBytes, engineWaitMs, runDeadlineMs } from './engine-limits.js';
import type { EngineHostOptions, EngineMessage, EngineState } from './engine-protocol.js';
import { EngineProcess, type EngineEnd } from './engine-process.js';
import { EngineSupervisor } from './engine-supervisor.js';
import { pidNamespaceId } from './namespace-init.js';
import { RunRelay } from './run-relay.js';
import { rebuildWireError } from './wire-error.js';
import { outOfScope } from './wire-scope.js';

/** What the lanes of one host share: its discovery, options, detail limit, closing signal and crash breaker. */
export interface LaneContext {
  readonly discovery: Discovery;
  readonly resolved: ResolvedHostOptions;
  readonly detailLimit: number;
  readonly closing: AbortSignal;
  readonly breaker: CrashBreaker;
}

interface PendingEffect {
  resolve(effect: Effect): void;
  reject(error: Error): void;
}

/**
 * One engine of the process tier as the service holds it: the engine of one package (or of a
 * group the service shares, engine-groups.ts), its supervisor, and every run and `effect()` call
 * in flight there. Its engine boots over its own packages' part of the discovery alone, and each
 * frame it sends may concern only what this lane sent it (wire-scope.ts) — checked whole before
 * any of it is applied; anything else kills that engine as corrupt, naming its packages. Its
 * crash, restart, backoff and watchdog are its own: another lane's runs never see them.
 */
export class EngineLane {
  readonly tags: ReadonlySet<string>;
  readonly label: string;
  private readonly supervisor: EngineSupervisor;
  private readonly relays = new Map<number, RunRelay>();
  private readonly effects = new Map<number, PendingEffect>();
  private state: EngineState = { availability: {}, available: [], toolRegistries: {} };
  private stateAt = Date.now();
  private nextId = 0;
  private retired = false;

  constructor(
    readonly group: EngineGroup,
    private readonly context: LaneContext,
  ) {
    this.tags = new Set(group.tags);
    this.label = engineLabel(group);
    const { resolved, detailLimit, discovery } = context;
    const { fsWrite, addons } = resolved.permissions;
    this.supervisor = new EngineSupervisor({
      label: this.label,
      tags: this.tags,
      spawn: (onMessage, onDeath) =>
        new EngineProcess(
          engineCommand(fsWrite, addons),
          buildEngineEnv(process.env, detailLimit),
          engineFrameBytes(resolved.limits),
          onMessage,
          onDeath,
        ),
      boot: {
        t: 'boot',
        discovery: buildEngineDiscovery(discovery, detailLimit, group.packages),
        options: engineOptions(resolved, this.tags),
        heartbeatMs: resolved.limits.heartbeatMs,
        servicePidNamespace: pidNamespaceId(),
      },
      onMessage: (message, engine) => this.receive(message, engine),
      onBooted: (state) => this.setState(state),
      onProbe: (tag, availability) => {
        try {
          resolved.onProbe?.(tag, availability);
        } catch {
          // A throwing onProbe is ignored, as in the thread tier.
        }
      },
      onDeath: (why, end) => this.engineDied(`${why} (${this.label})`, end),
      bootWaitMs: engineWaitMs(resolved),
      // The engine's main thread keeps the thread tier's pace: a heartbeat per period, and the same silence bound.
      heartbeatMs: resolved.limits.heartbeatMs,
      unresponsiveMs: resolved.limits.unresponsiveMs,
    });
  }

  /**
   * Boots the engine. One whose every tag its probe found unavailable holds no thread and will
   * run nothing: it is closed at once, and its verdicts stay (`serving` false).
   */
  async start(): Promise<void> {
    await this.supervisor.start();
    if (this.state.available.length > 0) return;
    this.retired = true;
    await this.supervisor.close(this.context.resolved.limits.graceMs);
  }

  /** Whether an engine runs this lane's tags (false once its boot found none available). */
  get serving(): boolean {
    return !this.retired;
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
    const degraded = this.context.breaker.degradation(tag) ?? fromEngine;
    return degraded === undefined ? verdict : { ...verdict, degraded };
  }

  /** Its available tags, as its engine last said. */
  available(): readonly string[] {
    return this.state.available;
  }

  toolRegistry(tag: string): RuntimeToolRegistry | undefined {
    return this.state.toolRegistries[tag] as RuntimeToolRegistry | undefined;
  }

  /** Its engine's entry in `host.isolation().engines`: the packages, the pid, and what the supervisor measured. */
  isolation(): EngineIsolation {
    return {
      packages: [...this.group.packages],
      tags: [...this.group.tags],
      pid: this.supervisor.pid() ?? null,
      ...this.supervisor.containment(),
    };
  }

  close(graceMs: number): Promise<void> {
    return this.supervisor.close(graceMs);
  }

  async run(request: ParsedExecRequest): Promise<ExecOutcome> {
    const { breaker, detailLimit, closing, resolved } = this.context;
    const tag = request.runtime;
    const degraded = breaker.degradation(tag);
    if (degraded !== undefined && this.state.availability[tag]?.available) {
      const crashed = `its engine process died ${degraded.crashes} time(s) within the breaker window while it alone ran`;
      return refusedOutcome(degradedFailure(tag, degraded, crashed, detailLimit));
    }
    const engine = await this.supervisor.ready();
    if (closing.aborted)
      return refusedOutcome(hostFailure('execution-cancelled', 'the host closed before the run started'));
    if (engine === undefined) return this.unavailable();
    const id = this.nextId++;
    const relay = new RunRelay(id, tag, request, engine, {
      detailLimit,
      maxBytes: engineFrameBytes(resolved.limits),
      deadlineMs: runDeadlineMs(resolved, request.timeoutMs),
    });
    this.relays.set(id, relay);
    relay.begin();
    try {
      const outcome = await relay.settled;
      if (!ENGINE_ENDS.has(outcome.containment?.forcedEnd?.reason ?? '')) this.supervisor.succeeded();
      return outcome;
    } finally {
      this.relays.delete(id);
    }
  }

  async effect(tag: string, target: string | null): Promise<Effect> {
    const engine = await this.supervisor.ready();
    if (this.context.closing.aborted) throw hostClosedError();
    if (engine === undefined) throw new PlurnkExecsError('effect-failed', `${tag}: ${this.label} is restarting`);
    const id = this.nextId++;
    return new Promise<Effect>((resolve, reject) => {
      this.effects.set(id, { resolve, reject });
      const frame = { t: 'effect' as const, id, tag, target };
      if (!engine.sendCall(frame, `effect ${id} (${tag})`, effectDeadlineMs(this.context.resolved)))
        reject(new PlurnkExecsError('effect-failed', `${tag}: ${this.label} was gone before the call reached it`));
    }).finally(() => this.effects.delete(id));
  }

  /**
   * Every validated frame of its booted engine: first held to what this lane sent that engine
   * (wire-scope.ts) and to each run's budget, the whole frame before any of it is applied;
   * then sink calls and outcomes go to their run, effects to their caller.
   */
  private receive(message: EngineMessage, engine: EngineProcess): void {
    const foreign = outOfScope(message, { tags: this.tags, runs: this.relays, effects: this.effects });
    if (foreign !== undefined) return engine.fail(foreign);
    switch (message.t) {
      case 'sinks': {
        const added = new Map<number, number>();
        for (const [id, call] of message.calls) added.set(id, (added.get(id) ?? 0) + sinkCallBytes(call));
        for (const [id, bytes] of added)
          if (!this.relays.get(id)!.fits(bytes)) return engine.fail(`more sink-call bytes than run ${id} may forward`);
        // In the engine's order, across runs.
        for (const [id, call] of message.calls) this.relays.get(id)!.sink(call);
        return;
      }
      case 'sink-request':
        return this.relays.get(message.id)!.ask(message);
      case 'exec-error': {
        const relay = this.relays.get(message.id)!;
        this.answered(engine, message.id);
        return relay.refused(message.error);
      }
      case 'outcome': {
        const relay = this.relays.get(message.id)!;
        const outcome = relay.restore(message);
        if (outcome === undefined) return engine.fail('an outcome whose text is not what its run forwarded');
        if (message.state !== undefined) this.setState(message.state);
        this.answered(engine, message.id);
        return relay.settle(outcome);
      }
      case 'heartbeat':
        // A heartbeat that carries a state: the engine's breaker spoke while nothing ran.
        if (message.state !== undefined) this.setState(message.state);
        return;
      case 'effect':
      case 'effect-error': {
        const pending = this.effects.get(message.id)!;
        this.effects.delete(message.id);
        engine.answered(message.id);
        if (message.t === 'effect') return pending.resolve(message.effect);
        return pending.reject(rebuildWireError(message.error, 'effect-failed'));
      }
      default:
        return;
    }
  }

  /** Run `id` was answered: it is in flight no more, so a second answer is refused as out of scope. */
  private answered(engine: EngineProcess, id: number): void {
    this.relays.delete(id);
    engine.answered(id);
  }

  /**
   * Every run in flight in this engine settles 500 (`engine-crashed`, or `engine-unresponsive`
   * when the service killed it); a death with one run in flight here is charged to its tag.
   */
  private engineDied(why: string, end: EngineEnd): void {
    const { breaker, closing } = this.context;
    const relays = [...this.relays.values()];
    this.relays.clear();
    if (relays.length === 1 && !closing.aborted) breaker.record(relays[0]!.tag, `the engine process died: ${why}`);
    for (const relay of relays) {
      if (closing.aborted) relay.settleClosed();
      else relay.settleCrashed(why, end);
    }
    const effects = [...this.effects.values()];
    this.effects.clear();
    for (const effect of effects)
      effect.reject(new PlurnkExecsError('effect-failed', `the engine process died: ${why}`));
  }

  private setState(state: EngineState): void {
    this.state = state;
    this.stateAt = Date.now();
  }

  private unavailable(): ExecOutcome {
    const lastDeath = this.supervisor.lastDeath;
    const detail = `${this.label} is restarting and did not come back in time${lastDeath ? ` (it died: ${lastDeath})` : ''}`;
    return refusedOutcome(hostFailure('engine-unavailable', ErrorDetail.preview(detail, this.context.detailLimit)));
  }
}

/** How a run ends when its engine did: not a clean run, so the restart backoff is not reset. */
const ENGINE_ENDS: ReadonlySet<string> = new Set<EngineEnd>(['engine-crashed', 'engine-unresponsive']);

/**
 * The resolved options an engine's thread tier takes: all but the function, the engine's own
 * permissions and the groups; `defaultRuntime` only for the engine that serves it.
 */
function engineOptions(resolved: ResolvedHostOptions, tags: ReadonlySet<string>): EngineHostOptions {
  const { onProbe: _p, permissions: _m, engines: _e, defaultRuntime, ...rest } = resolved;
  return structuredClone({
    ...rest,
    defaultRuntime: defaultRuntime !== undefined && tags.has(defaultRuntime) ? defaultRuntime : undefined,
  });
}

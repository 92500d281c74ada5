import type { Effect } from '../contracts/effect.js';
import { ErrorDetail } from '../contracts/error-detail.js';
import { PlurnkExecsError } from '../contracts/errors.js';
import type { RuntimeToolRegistry } from '../contracts/invocation.js';
import type { ParsedExecRequest } from '../model/exec-request.js';
import type { EngineDeathCause } from '../model/fault-kinds.js';
import { hostFailure } from '../model/host-problems.js';
import type { Availability, EngineIsolation, ExecOutcome } from '../model/host-types.js';
import type { EngineStats, TierTagStats } from '../model/observe/host-stats.js';
import { degradedFailure, hostClosedError, refusedOutcome } from '../model/refusal.js';
import type { RunTrace } from '../model/tier.js';
import { sinkCallBytes } from './crashed-run.js';
import { engineLabel, type EngineGroup } from './engine-groups.js';
import { effectDeadlineMs, engineFrameBytes, runDeadlineMs } from './engine-limits.js';
import type { EngineMessage, EngineState } from './engine-protocol.js';
import { laneSupervisorSpec, type LaneContext } from './engine-spec.js';
import { EngineObserver, processTagStats } from './engine-observe.js';
import type { EngineEnd, EngineProcess } from './engine-process.js';
import { describeEngine } from './engine-stats.js';
import { EngineSupervisor } from './engine-supervisor.js';
import { RunRelay } from './run-relay.js';
import { rebuildWireError } from './wire-error.js';
import { outOfScope } from './wire-scope.js';

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
  /** Observing the engine: its events, its stats, the runs waiting for it (engine-observe.ts). */
  private readonly observe: EngineObserver;
  /** How long each run in flight waited in the engine for its thread, as its outcome frame said. */
  private readonly queueWaits = new Map<number, number>();
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
    this.supervisor = new EngineSupervisor(
      laneSupervisorSpec(group, this.label, context, {
        runsInFlight: () => this.relays.size,
        onMessage: (message, engine) => this.receive(message, engine),
        onBooted: (state) => this.setState(state),
        onDeath: (why, end, cause) => this.engineDied(`${why} (${this.label})`, end, cause),
      }),
    );
    this.observe = new EngineObserver(this.tags, () => this.supervisor.current());
  }

  /**
   * Boots the engine. One whose every tag its probe found unavailable holds no thread and will
   * run nothing: it is closed at once, and its verdicts stay (`serving` false).
   */
  async start(): Promise<void> {
    await this.supervisor.start();
    if (this.state.available.length > 0) return;
    this.retired = true;
    await this.close(this.context.resolved.limits.graceMs);
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
      pid: this.supervisor.enginePid() ?? null,
      ...this.supervisor.containment(),
    };
  }

  /**
   * Its tags' facts for `host.stats()`, the engine's thread tier asked (none while it restarts)
   * and joined with the service's own, and its engine's entry.
   */
  async stats(): Promise<{ tags: Record<string, TierTagStats>; engine: EngineStats }> {
    const engine = this.supervisor.current();
    const inside = engine === undefined ? undefined : await this.observe.ask(engine);
    const tags = processTagStats(this.group.tags, inside, this.context.breaker, this.observe.waiting);
    return { tags, engine: describeEngine(this.supervisor.facts(), this.group.packages) };
  }

  close(graceMs: number): Promise<void> {
    this.observe.close();
    return this.supervisor.close(graceMs);
  }

  async run(request: ParsedExecRequest, trace?: RunTrace): Promise<ExecOutcome> {
    const { breaker, detailLimit, closing, resolved } = this.context;
    const tag = request.runtime;
    const degraded = breaker.degradation(tag);
    if (degraded !== undefined && this.state.availability[tag]?.available) {
      const crashed = `its engine process died ${degraded.crashes} time(s) within the breaker window while it alone ran`;
      return refusedOutcome(degradedFailure(tag, degraded, crashed, detailLimit));
    }
    const leave = this.observe.waiting.enter(tag, trace);
    const engine = await this.supervisor.ready().finally(leave);
    if (closing.aborted)
      return refusedOutcome(hostFailure('execution-cancelled', 'the host closed before the run started'));
    if (engine === undefined) return this.unavailable();
    this.observe.sync(engine);
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
      if (!ENGINE_ENDS.has(outcome.containment?.forcedEnd?.reason ?? '')) {
        this.supervisor.succeeded();
        // A clean run ends the tag's probation after a cool-down, as in the thread tier.
        breaker.succeeded(tag);
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
        if (message.queueMs !== undefined) this.queueWaits.set(message.id, message.queueMs);
        this.answered(engine, message.id);
        return relay.settle(outcome);
      }
      case 'stats':
      case 'event':
        return this.observe.receive(message, engine);
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
  private engineDied(why: string, end: EngineEnd, cause?: EngineDeathCause): void {
    const { breaker, closing } = this.context;
    const relays = [...this.relays.values()];
    this.relays.clear();
    if (relays.length === 1 && !closing.aborted) breaker.record(relays[0]!.tag, `the engine process died: ${why}`);
    for (const relay of relays) {
      if (closing.aborted) relay.settleClosed();
      else relay.settleCrashed(why, end, cause);
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

import { tmpdir } from 'node:os';
import { resolve } from 'node:path';
import type { Effect } from '../contracts/effect.js';
import { ErrorDetail } from '../contracts/error-detail.js';
import { PlurnkExecsError } from '../contracts/errors.js';
import type { RuntimeToolRegistry } from '../contracts/invocation.js';
import type { Discovery } from '../contracts/registry.js';
import { CrashBreaker } from '../host/crash-breaker.js';
import { parseExecRequest, type ParsedExecRequest } from '../host/dispatch/exec-request.js';
import { resolveHostOptions, type ResolvedHostOptions } from '../host/host-options.js';
import { hostFailure } from '../host/host-problems.js';
import { classifyOutcome } from '../host/outcome-class.js';
import type { Availability, ExecOutcome, ExecRequest, Host, HostOptions, Isolation } from '../host/host-types.js';
import { resolveErrorDetailLimit } from '../host/threads/worker-env.js';
import { engineCommand } from './engine-command.js';
import { buildEngineDiscovery, buildEngineEnv } from './engine-env.js';
import { engineFrameBytes, engineWaitMs } from './engine-limits.js';
import type { EngineHostOptions, EngineMessage, EngineState } from './engine-protocol.js';
import { EngineProcess, type EngineEnd } from './engine-process.js';
import { EngineSupervisor } from './engine-supervisor.js';
import { pidNamespaceId } from './namespace-init.js';
import { RunRelay } from './run-relay.js';
import { rebuildWireError } from './wire-error.js';

/**
 * Boots the process tier over `discovery`: one engine process runs the thread host, and this
 * object, in the service, is the `Host` the caller holds. The API and its answers are the
 * thread tier's; what differs is that a leaf reaches nothing of the service. Rejects like
 * `bootHost` (`invalid-configuration`, `boot-failed`, …) when the first engine cannot boot.
 */
export async function bootProcessHost(discovery: Discovery, options: HostOptions = {}): Promise<Host> {
  const resolved = resolveHostOptions(options);
  const detailLimit = await resolveErrorDetailLimit(discovery.env ?? {});
  const host = new ProcessHost(discovery, options, resolved, detailLimit);
  await host.start();
  return host;
}

class ProcessHost implements Host {
  private readonly supervisor: EngineSupervisor;
  private readonly relays = new Map<number, RunRelay>();
  private readonly effects = new Map<number, { resolve(effect: Effect): void; reject(error: Error): void }>();
  private readonly inFlight = new Set<Promise<unknown>>();
  private readonly breaker: CrashBreaker;
  private state: EngineState = { availability: {}, available: [], toolRegistries: {} };
  private stateAt = Date.now();
  private nextId = 0;
  private closing = false;
  private closed: Promise<void> | undefined;

  constructor(
    readonly discovery: Discovery,
    options: HostOptions,
    private readonly resolved: ResolvedHostOptions,
    private readonly detailLimit: number,
  ) {
    this.breaker = new CrashBreaker(resolved.breaker);
    const fsWrite = (options.permissions?.fsWrite ?? [options.cwd ?? process.cwd(), tmpdir()]).map((dir) =>
      resolve(dir),
    );
    this.supervisor = new EngineSupervisor({
      spawn: (onMessage, onDeath) =>
        new EngineProcess(
          engineCommand(fsWrite, options.permissions?.addons === true),
          buildEngineEnv(process.env, detailLimit),
          engineFrameBytes(resolved),
          onMessage,
          onDeath,
        ),
      boot: {
        t: 'boot',
        discovery: buildEngineDiscovery(discovery, detailLimit),
        options: engineOptions(options),
        heartbeatMs: resolved.heartbeatMs,
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
      onDeath: (why, end) => this.engineDied(why, end),
      bootWaitMs: engineWaitMs(resolved),
      // The engine's main thread keeps the thread tier's pace: a heartbeat per period, and the same silence bound.
      heartbeatMs: resolved.heartbeatMs,
      unresponsiveMs: resolved.unresponsiveMs,
    });
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

  effect(tag: string, target: string | null): Promise<Effect> {
    if (this.closing) return Promise.reject(closedError());
    return this.track(this.askEffect(tag === '' ? (this.resolved.defaultRuntime ?? 'sh') : tag, target));
  }

  exec(request: ExecRequest): Promise<ExecOutcome> {
    let parsed: ParsedExecRequest;
    try {
      if (this.closing) throw closedError();
      parsed = parseExecRequest(request);
    } catch (error) {
      return Promise.reject(error);
    }
    return this.track(this.run(parsed));
  }

  close(): Promise<void> {
    this.closed ??= (async () => {
      this.closing = true;
      await this.supervisor.close(this.resolved.graceMs);
      await Promise.allSettled([...this.inFlight]);
    })();
    return this.closed;
  }

  private async run(request: ParsedExecRequest): Promise<ExecOutcome> {
    const tag = request.runtime === '' ? (this.resolved.defaultRuntime ?? 'sh') : request.runtime;
    const degraded = this.breaker.degradation(tag);
    if (degraded !== undefined && this.state.availability[tag]?.available) {
      const detail = `runtime ${tag} is degraded: its engine process died ${degraded.crashes} time(s) within the breaker window while it alone ran; it may run again in ${degraded.retryInMs}ms. Last crash: ${degraded.reason}`;
      const result = hostFailure('runtime-degraded', ErrorDetail.preview(detail, this.detailLimit), {
        lastCrash: ErrorDetail.preview(degraded.reason, this.detailLimit),
        retryAfterMs: degraded.retryInMs,
      });
      return refusal(result);
    }
    const engine = await this.supervisor.ready();
    if (this.closing) {
      const result = hostFailure('execution-cancelled', 'the host closed before the run started');
      return refusal(result);
    }
    if (engine === undefined) return unavailable(this.detailLimit, this.supervisor.lastDeath);
    const id = this.nextId++;
    const relay = new RunRelay(id, tag, request, engine, this.detailLimit, engineFrameBytes(this.resolved));
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

  private async askEffect(tag: string, target: string | null): Promise<Effect> {
    const engine = await this.supervisor.ready();
    if (this.closing) throw closedError();
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
        return this.relays.get(message.id)?.receive(message);
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
  private engineDied(why: string, end: EngineEnd): void {
    const relays = [...this.relays.values()];
    if (relays.length === 1 && !this.closing) this.breaker.record(relays[0]!.tag, `the engine process died: ${why}`);
    for (const relay of relays) {
      if (this.closing) relay.settleClosed();
      else relay.settleCrashed(why, end);
    }
    for (const effect of this.effects.values())
      effect.reject(new PlurnkExecsError('effect-failed', `the engine process died: ${why}`));
  }

  private setState(state: EngineState): void {
    this.state = state;
    this.stateAt = Date.now();
  }

  private track<T>(work: Promise<T>): Promise<T> {
    this.inFlight.add(work);
    void work.finally(() => this.inFlight.delete(work)).catch(() => {});
    return work;
  }
}

/** How a run ends when its engine did: not a clean run, so the restart backoff is not reset. */
const ENGINE_ENDS: ReadonlySet<string> = new Set<EngineEnd>(['engine-crashed', 'engine-unresponsive']);

/** The host options the engine's thread host takes: everything but discovery's, the tier's, and functions. */
function engineOptions(options: HostOptions): EngineHostOptions {
  const {
    onProbe: _p,
    env: _e,
    cwd: _c,
    packageDirs: _d,
    hookTimeoutMs: _h,
    isolation: _i,
    permissions: _m,
    ...rest
  } = options;
  return structuredClone(rest);
}

function closedError(): PlurnkExecsError {
  return new PlurnkExecsError('host-closed', 'the host is closed: create a new host to run more EXECs');
}

function unavailable(detailLimit: number, lastDeath: string | undefined): ExecOutcome {
  const detail = `the engine process is restarting and did not come back in time${lastDeath ? ` (it died: ${lastDeath})` : ''}`;
  return refusal(hostFailure('engine-unavailable', ErrorDetail.preview(detail, detailLimit)));
}

/** The outcome of a run the host ended before any engine saw it: no effect, no output. */
function refusal(result: ExecOutcome['result']): ExecOutcome {
  return {
    outcome: classifyOutcome(result, null),
    result,
    effect: null,
    address: null,
    channels: {},
    notices: [],
    violations: [],
  };
}

import { PlurnkExecsError } from '../contracts/errors.js';
import type { EngineDeathCause } from '../model/fault-kinds.js';
import type { Availability, Isolation } from '../model/host-types.js';
import { eventText, publishEvent } from '../model/observe/publish-event.js';
import { ENGINE_CLOSE_MARGIN_MS, ENGINE_RESTART_BACKOFF_MS } from './engine-limits.js';
import type { EngineMessage, EngineState, ServiceMessage } from './engine-protocol.js';
import type { EngineEnd, EngineHello, EngineProcess } from './engine-process.js';
import { containmentOf, enginePid, type EngineFacts } from './engine-stats.js';
import { rebuildWireError } from './wire-error.js';

/** What the supervisor needs from its host. */
export interface SupervisorSpec {
  spawn(
    onMessage: (message: EngineMessage) => void,
    onDeath: (why: string, end: EngineEnd, cause?: EngineDeathCause) => void,
  ): EngineProcess;
  readonly boot: Extract<ServiceMessage, { t: 'boot' }>;
  /** Every frame of a booted engine. */
  onMessage(message: EngineMessage): void;
  onBooted(state: EngineState): void;
  onProbe(tag: string, availability: Availability): void;
  /** The booted engine died, or was killed as unresponsive (not called for one that dies while booting); `cause` when the host can tell. */
  onDeath(why: string, end: EngineEnd, cause?: EngineDeathCause): void;
  /** Bound on one boot, and on how long a caller waits for a restarting engine. */
  readonly bootWaitMs: number;
  /** How often a booted engine's main thread sends a heartbeat, and the silence after which it is killed (ms). */
  readonly heartbeatMs: number;
  readonly unresponsiveMs: number;
  /** The leaf packages the engine holds (what its events and stats name). */
  readonly packages: readonly string[];
  /** Runs in flight in the engine now (what its crash event counts). */
  runsInFlight(): number;
}

/**
 * Keeps one engine process booted: starts it, sees it die (or go silent, when its watchdog
 * kills it), starts the next with doubling backoff (reset by a clean run) and re-probes, and
 * tells callers how long to wait for it. Each boot, death and restart is published
 * (`plurnk-execs:engine:*`, docs/host.md "Observing the host").
 */
export class EngineSupervisor {
  private engine: EngineProcess | undefined;
  private hello: EngineHello | undefined;
  private readonly spawned = new Set<EngineProcess>();
  private readonly waiters = new Set<(engine: EngineProcess | undefined) => void>();
  private failures = 0;
  private closed = false;
  private restartTimer: NodeJS.Timeout | undefined;
  /** Why the last engine died, for the 503 of a caller that waited in vain. */
  lastDeath: string | undefined;
  /** The booted engine's pid as the service sees it, and when it booted. */
  private pid: number | undefined;
  private bootedAt: number | undefined;
  /** Engines booted after the first. */
  private restarts = 0;
  /** Why the last booted engine died (not one the host's close ended). */
  private lastCrash: string | undefined;

  constructor(private readonly spec: SupervisorSpec) {}

  /** Boots the first engine; rejects with the engine's boot error, or `boot-failed`. */
  async start(): Promise<void> {
    await this.bootOne();
  }

  /** The booted engine, waiting up to `bootWaitMs` for one being restarted; undefined when none came (or the host closed). */
  ready(): Promise<EngineProcess | undefined> {
    if (this.engine?.alive) return Promise.resolve(this.engine);
    if (this.closed) return Promise.resolve(undefined);
    return new Promise((resolve) => {
      const waiter = (engine: EngineProcess | undefined) => {
        clearTimeout(timer);
        this.waiters.delete(waiter);
        resolve(engine);
      };
      const timer = setTimeout(() => waiter(undefined), this.spec.bootWaitMs);
      this.waiters.add(waiter);
    });
  }

  /** The booted engine, while it lives; never waits for one. */
  current(): EngineProcess | undefined {
    return this.engine?.alive === true ? this.engine : undefined;
  }

  /** What `host.stats()` reports of the engine (engine-stats.ts). */
  facts(): EngineFacts {
    const { engine, pid, bootedAt, restarts, lastCrash, closed } = this;
    return { engine, pid, bootedAt, restarts, lastCrash, closed, containment: () => this.containment() };
  }

  /** A run ended cleanly: the next crash restarts without waiting long. */
  succeeded(): void {
    this.failures = 0;
  }

  /**
   * Which containment the booted engine confirmed from inside (both false before the first
   * boot), how many processes its namespace's init has reaped, where that init counts, and its
   * sandbox's layers (sandbox/engine-sandbox.ts), each in effect only when the engine saw it so.
   */
  containment(): Omit<Isolation, 'tier'> {
    const engine = this.engine;
    const pidNamespace = engine?.command.pidNamespace === true && this.hello?.pidNamespace === true;
    const zombiesReaped = pidNamespace ? engine?.zombiesReaped() : undefined;
    return {
      pidNamespace,
      permissionModel: engine?.command.permissionModel === true && this.hello?.permissionModel === true,
      ...(zombiesReaped === undefined ? {} : { zombiesReaped }),
      ...engine?.command.sandbox?.layers(this.hello?.sandbox),
    };
  }

  /** Asks the engine to close its host, waits a grace, then kills it (and its namespace) and every engine still booting. */
  async close(graceMs: number): Promise<void> {
    this.closed = true;
    clearTimeout(this.restartTimer);
    for (const waiter of [...this.waiters]) waiter(undefined);
    const engine = this.engine;
    if (engine?.alive && engine.send({ t: 'close' })) {
      let timer: NodeJS.Timeout | undefined;
      const grace = new Promise<void>((resolve) => (timer = setTimeout(resolve, 2 * graceMs + ENGINE_CLOSE_MARGIN_MS)));
      await Promise.race([engine.exited, grace]);
      clearTimeout(timer);
    }
    // Taken before the kills: an engine leaves the set as it dies, long before it has exited.
    const spawned = [...this.spawned];
    for (const engine of spawned) engine.kill('the host closed');
    await Promise.all(spawned.map((engine) => engine.exited));
  }

  private bootOne(): Promise<EngineProcess> {
    return new Promise<EngineProcess>((resolve, reject) => {
      let booted = false;
      let hello: EngineHello | undefined;
      const spawnedAt = performance.now();
      const engine = this.spec.spawn(
        (message) => {
          if (booted) return this.spec.onMessage(message);
          if (message.t === 'hello' && hello === undefined) hello = message;
          else if (message.t === 'probe') this.spec.onProbe(message.tag, message.availability);
          else if (message.t === 'booted') {
            booted = true;
            clearTimeout(timer);
            // Booting has its own bound (the timer above); from here on silence is the watchdog's.
            engine.watch(this.spec.heartbeatMs, this.spec.unresponsiveMs);
            this.engine = engine;
            this.hello = hello;
            this.booted(engine, performance.now() - spawnedAt);
            this.spec.onBooted(message.state);
            for (const waiter of [...this.waiters]) waiter(engine);
            resolve(engine);
          } else if (message.t === 'boot-failed') {
            reject(rebuildWireError(message.error, 'boot-failed'));
            engine.kill('its boot failed');
          } else engine.fail(`a ${message.t} frame before it booted`);
        },
        (why, end, cause) => {
          clearTimeout(timer);
          this.spawned.delete(engine);
          if (!booted) {
            const output = engine.output.text === '' ? '' : `; its output: ${engine.output.text.slice(0, 1024)}`;
            return reject(new PlurnkExecsError('boot-failed', `the engine process did not boot: ${why}${output}`));
          }
          if (this.engine !== engine) return;
          this.engine = undefined;
          this.lastDeath = why;
          // An engine the host's close() ended did not crash.
          if (!this.closed) this.died(why, end, cause);
          this.spec.onDeath(why, end, cause);
          this.restart();
        },
      );
      this.spawned.add(engine);
      const timer = setTimeout(
        () => engine.kill(`the engine did not boot within ${this.spec.bootWaitMs}ms`),
        this.spec.bootWaitMs,
      );
      engine.send(this.spec.boot);
    });
  }

  /** An engine booted: its pid and time are kept, and `engine:start` published. */
  private booted(engine: EngineProcess, bootMs: number): void {
    if (this.bootedAt !== undefined) this.restarts += 1;
    this.pid = enginePid(engine);
    this.bootedAt = Date.now();
    publishEvent('plurnk-execs:engine:start', () => ({
      pid: this.pid ?? null,
      packages: [...this.spec.packages],
      restarts: this.restarts,
      bootMs,
      containment: containmentOf(this),
    }));
  }

  /** The booted engine ended: `engine:unresponsive` first when its watchdog killed it, then `engine:crash`. */
  private died(why: string, end: EngineEnd, deathCause: EngineDeathCause | undefined): void {
    this.lastCrash = why;
    const pid = this.pid ?? null;
    const packages = [...this.spec.packages];
    if (end === 'engine-unresponsive') {
      const unresponsiveMs = this.spec.unresponsiveMs;
      publishEvent('plurnk-execs:engine:unresponsive', () => ({
        pid,
        packages,
        unresponsiveMs,
        cause: eventText(why),
      }));
    }
    const runsInFlight = this.spec.runsInFlight();
    publishEvent('plurnk-execs:engine:crash', () => ({
      pid,
      packages,
      end,
      cause: eventText(why),
      runsInFlight,
      ...(deathCause === undefined ? {} : { deathCause }),
    }));
  }

  /** The next engine, after a backoff that doubles with each failure in a row. */
  private restart(): void {
    if (this.closed) return;
    const { first, max } = ENGINE_RESTART_BACKOFF_MS;
    const delay = Math.min(first * 2 ** this.failures, max);
    this.failures += 1;
    const cause = eventText(this.lastDeath ?? 'unknown');
    publishEvent('plurnk-execs:engine:restart', () => ({
      packages: [...this.spec.packages],
      restart: this.restarts + 1,
      delayMs: delay,
      cause,
    }));
    this.restartTimer = setTimeout(() => {
      if (this.closed) return;
      this.bootOne().catch((error: Error) => {
        this.lastDeath = error.message;
        this.restart();
      });
    }, delay);
  }
}

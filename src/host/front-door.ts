import type { Effect } from '../contracts/effect.js';
import type { RuntimeToolRegistry } from '../contracts/invocation.js';
import type { Discovery } from '../contracts/registry.js';
import { parseExecRequest } from '../model/exec-request.js';
import type { Availability, ExecOutcome, ExecRequest, Host, Isolation } from '../model/host-types.js';
import type { HostStats } from '../model/observe/host-stats.js';
import { hostClosedError } from '../model/refusal.js';
import type { Tier } from '../model/tier.js';
import { HostObserver } from './observe/host-observer.js';

/**
 * The `Host` a caller holds, whichever tier runs its leaves: what both tiers share, written
 * once. It validates each EXEC, resolves the default runtime, keeps every call in flight so
 * `close()` waits for it, refuses every call once the host is closed, and observes every call
 * it lets in (observe/host-observer.ts: `host.stats()`, the traces); the tier does the work.
 */
export class FrontDoor implements Host {
  private readonly inFlight = new Set<Promise<unknown>>();
  private closed: Promise<void> | undefined;
  /** Undefined only for the benchmark's baseline of an unobserved host (boot-host.ts). */
  private readonly observer: HostObserver | undefined;

  constructor(
    private readonly tier: Tier,
    private readonly defaultRuntime: string | undefined,
    /** The host's closing signal, which the tier was booted with: aborted by `close()`. */
    private readonly closing: AbortController,
    observe = true,
  ) {
    this.observer = observe ? new HostObserver(tier.discovery.registry.keys()) : undefined;
  }

  get discovery(): Discovery {
    return this.tier.discovery;
  }

  availability(tag: string): Availability | undefined {
    return this.tier.availability(tag);
  }

  availableRuntimes(): string[] {
    return this.tier.availableRuntimes();
  }

  toolRegistry(tag: string): RuntimeToolRegistry | undefined {
    return this.tier.toolRegistry(tag);
  }

  isolation(): Isolation {
    return this.tier.isolation();
  }

  effect(tag: string, target: string | null): Promise<Effect> {
    if (this.closing.signal.aborted) return Promise.reject(hostClosedError());
    const runtime = this.resolveRuntime(tag);
    const call = () => this.tier.effect(runtime, target);
    return this.track(this.observer === undefined ? call() : this.observer.effect(runtime, target, call));
  }

  exec(request: ExecRequest): Promise<ExecOutcome> {
    if (this.closing.signal.aborted) return Promise.reject(hostClosedError());
    try {
      const parsed = parseExecRequest(request);
      parsed.runtime = this.resolveRuntime(parsed.runtime);
      if (this.observer === undefined) return this.track(this.tier.run(parsed));
      return this.track(this.observer.exec(parsed, (trace) => this.tier.run(parsed, trace)));
    } catch (error) {
      return Promise.reject(error);
    }
  }

  async stats(): Promise<HostStats> {
    const tierStats = await this.tier.stats();
    const tier = this.tier.isolation().tier;
    return this.observer?.stats(tier, tierStats) ?? new HostObserver([]).stats(tier, tierStats);
  }

  close(): Promise<void> {
    this.closed ??= (async () => {
      this.closing.abort(new DOMException('the host closed', 'AbortError'));
      await this.tier.close(Promise.allSettled([...this.inFlight]).then(() => {}));
    })();
    return this.closed;
  }

  /** An empty runtime means the default runtime: `defaultRuntime`, else `sh` (as 1.x). */
  private resolveRuntime(runtime: string): string {
    return runtime === '' ? (this.defaultRuntime ?? 'sh') : runtime;
  }

  /** Keeps `work` in the set close() waits for until it settles. */
  private track<T>(work: Promise<T>): Promise<T> {
    this.inFlight.add(work);
    // Both handlers in one `then`: the rejection is handled here, and no promise more is made per call.
    const leave = () => void this.inFlight.delete(work);
    void work.then(leave, leave);
    return work;
  }
}

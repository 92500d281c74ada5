import { PlurnkExecsError } from '../contracts/errors.js';
import type { Discovery } from '../contracts/registry.js';
import { bootProcessTier, prepareEngineStart } from '../engine/index.js';
import { resolveHostOptions, type ResolvedHostOptions } from '../model/host-options.js';
import type { Host, HostOptions } from '../model/host-types.js';
import type { Tier } from '../model/tier.js';
import { bootThreadTier } from '../thread-host/index.js';
import { FrontDoor } from './front-door.js';

// The front door's two ways in over an existing discovery, one per tier: the only place that
// knows both tiers. `createHost` discovers, then takes the one `isolation` names.

/**
 * Boots the isolating host over an existing discovery in this process (the thread tier): one
 * set of threads per registered tag, every tag loaded and probed concurrently, each verdict
 * cached (§executor-probe). Unavailable tags keep no threads. Rejects with
 * `invalid-configuration` for bad options, and with `boot-failed` when the compiled worker is
 * missing or `defaultRuntime` is absent or unavailable (after closing everything it started).
 */
export async function bootHost(discovery: Discovery, options: HostOptions = {}): Promise<Host> {
  const resolved = resolveHostOptions(options);
  if (options.isolation === 'process') {
    // Never a silent fall back to the thread tier: the engine process is createHost's to start.
    throw new PlurnkExecsError(
      'invalid-configuration',
      'bootHost runs the thread tier only: for isolation "process" call createHost (docs/isolation.md)',
    );
  }
  return openDoor(resolved, (closing) => bootThreadTier(discovery, resolved, closing));
}

/**
 * Boots the host over an existing discovery in the process tier: its threads in an engine
 * process of the host's own (docs/isolation.md). Rejects as {@link bootHost} does when the
 * first engine cannot boot.
 */
export async function bootProcessHost(discovery: Discovery, options: HostOptions = {}): Promise<Host> {
  const resolved = resolveHostOptions(options);
  return openDoor(resolved, (closing) => bootProcessTier(discovery, resolved, closing));
}

/**
 * Learns what an engine's start needs to know of this machine (its namespaces, init and sandbox
 * layers), without blocking: run beside discovery, the first engine does not wait for it.
 */
export { prepareEngineStart };

/**
 * The benchmark's baseline only, never published: a host of either tier whose front door
 * observes nothing — no counts, no traces, as before `host.stats()` — so `npm run bench` can
 * measure what observing costs an EXEC, in one run (bench/scenarios/observe.ts).
 */
export async function bootUnobservedHost(
  discovery: Discovery,
  options: HostOptions,
  isolation: 'thread' | 'process',
): Promise<Host> {
  const resolved = resolveHostOptions(options);
  const boot = isolation === 'thread' ? bootThreadTier : bootProcessTier;
  return openDoor(resolved, (closing) => boot(discovery, resolved, closing), false);
}

/** The front door over the tier `boot` starts, both holding one closing signal. */
async function openDoor(
  resolved: ResolvedHostOptions,
  boot: (closing: AbortSignal) => Promise<Tier>,
  observe = true,
): Promise<Host> {
  const closing = new AbortController();
  return new FrontDoor(await boot(closing.signal), resolved.defaultRuntime, closing, observe);
}

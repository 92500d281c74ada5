import { explainMissingTag } from '../discovery/known-leaves.js';
import { existsSync } from 'node:fs';
import { PlurnkExecsError } from '../contracts/errors.js';
import type { Discovery } from '../contracts/registry.js';
import { CrashBreaker } from '../model/crash-breaker.js';
import type { ResolvedHostOptions } from '../model/host-options.js';
import type { Tier } from '../model/tier.js';
import { ThreadTier, type BootedTag } from './thread-tier.js';
import { workerEntryPath } from '../runtime/package-root.js';
import { probeAll } from './probe-all.js';
import { SpareBudget } from './threads/spare-demand.js';
import { StartGate } from './threads/start-gate.js';
import { TagWorkers } from './threads/tag-workers.js';
import { packageOwnedEnv, resolveErrorDetailLimit, workerBaseEnv } from './threads/worker-env.js';

/**
 * Boots the thread tier over an existing discovery: one set of threads per registered tag,
 * every tag loaded and probed concurrently, each verdict cached (§executor-probe). Unavailable
 * tags keep no threads. `closing` is the host's: once it aborts, every run in flight settles.
 * Rejects with `invalid-configuration` for a discovery without a registry, and with
 * `boot-failed` when the compiled worker is missing or `defaultRuntime` is absent or
 * unavailable (after closing everything it started). The front door's `bootHost` and the
 * engine process boot it.
 */
export async function bootThreadTier(
  discovery: Discovery,
  resolved: Omit<ResolvedHostOptions, 'permissions' | 'engines'>,
  closing: AbortSignal,
): Promise<Tier> {
  if (!(discovery?.registry instanceof Map)) {
    throw new PlurnkExecsError(
      'invalid-configuration',
      'bootHost needs a Discovery whose registry is a Map of tag ⇒ RegistryEntry',
    );
  }
  if (!existsSync(workerEntryPath())) {
    throw new PlurnkExecsError(
      'boot-failed',
      `the compiled worker entry ${workerEntryPath()} is missing: build the package (npm run build) first`,
    );
  }
  const detailLimit = await resolveErrorDetailLimit(discovery.env ?? {});
  const { limits } = resolved;
  const breaker = new CrashBreaker(resolved.breaker);
  const workers = new Map<string, TagWorkers>();
  // One admission queue for the whole host: every tag's thread starts (probes, runs, spares) pass
  // it; one spare budget: every tag's spares count against it.
  const admission = {
    gate: new StartGate(resolved.admission),
    loadTimeoutMs: resolved.loadTimeoutMs,
    spares: { budget: new SpareBudget(resolved.spares.max), idleMs: resolved.spares.idleMs },
  };
  for (const [tag, entry] of discovery.registry) {
    const owned = packageOwnedEnv(discovery, entry.packageName);
    const env = workerBaseEnv(process.env, detailLimit, owned);
    const boot = { tag, glyph: entry.glyph, entryUrl: entry.entryUrl, limits, ownedEnvKeys: Object.keys(owned) };
    const spec = {
      boot,
      env,
      packageName: entry.packageName,
      onCrash: (reason: string) => breaker.record(tag, reason),
    };
    workers.set(tag, new TagWorkers(spec, resolved.recycle, admission));
  }
  const probes = await probeAll(workers, {
    probeTimeoutMs: resolved.probeTimeoutMs,
    loadTimeoutMs: resolved.loadTimeoutMs,
    graceMs: limits.graceMs,
    detailLimit,
    onProbe: resolved.onProbe,
  });
  const tags = new Map<string, BootedTag>();
  for (const [tag, tagWorkers] of workers) {
    const probe = probes.get(tag)!;
    if (!probe.verdict.available) await tagWorkers.close();
    tags.set(tag, { workers: tagWorkers, probe });
  }
  const tier = new ThreadTier(discovery, tags, resolved, detailLimit, breaker, closing);
  const wanted = resolved.defaultRuntime;
  if (wanted !== undefined && !tier.availability(wanted)?.available) {
    await tier.close(Promise.resolve());
    const why = discovery.registry.has(wanted)
      ? `is unavailable: ${tier.availability(wanted)?.detail ?? 'no detail'}`
      : `is not registered: ${explainMissingTag(wanted, discovery.searched ?? [])}`;
    throw new PlurnkExecsError('boot-failed', `the default runtime ${JSON.stringify(wanted)} ${why}`);
  }
  return tier;
}

import type { Discovery } from '../contracts/registry.js';
import { buildEngineEnv } from '../engine/index.js';
import { packageOwnedEnv, resolveErrorDetailLimit, workerBaseEnv } from '../thread-host/index.js';

/**
 * The environment a thread of `packageName` starts with in the tier `isolation` names: in the
 * thread tier, built from this process's; in the process tier, from the engine's, which is
 * built rather than inherited. A run's `env` replaces its thread's, so a caller who wants a
 * leaf to see what its thread would have seen (`check`) passes this, plus its own keys.
 */
export async function threadEnv(
  discovery: Discovery,
  packageName: string,
  isolation: 'process' | 'thread',
): Promise<Record<string, string>> {
  const detailLimit = await resolveErrorDetailLimit(discovery.env);
  const base = isolation === 'process' ? buildEngineEnv(process.env, detailLimit) : process.env;
  return workerBaseEnv(base, detailLimit, packageOwnedEnv(discovery, packageName));
}

import { PLURNK_EXECS_ERROR_DETAIL_LIMIT } from '../contracts/error-detail.js';
import type { Discovery } from '../contracts/registry.js';
import { packageOwnedEnv } from '../thread-host/index.js';
import type { EngineDiscovery } from './engine-protocol.js';

/** The service's variables an engine may see: where programs are, whose home, which language and zone, where temp files go. */
const BASICS = new Set(['PATH', 'HOME', 'USER', 'LOGNAME', 'SHELL', 'LANG', 'LANGUAGE', 'TZ', 'TMPDIR', 'TMP', 'TEMP']);

/**
 * The engine process's environment, built rather than inherited: the basics above and `LC_*`
 * from the service's environment, and the error-detail limit every thread needs. Nothing
 * else of the service — its secrets, its `NODE_OPTIONS`, its `PLURNK_*` policy — reaches it.
 */
export function buildEngineEnv(serviceEnv: NodeJS.ProcessEnv, detailLimit: number): Record<string, string> {
  const env: Record<string, string> = {};
  for (const [key, value] of Object.entries(serviceEnv)) {
    if (value !== undefined && (BASICS.has(key) || key.startsWith('LC_'))) env[key] = value;
  }
  env[PLURNK_EXECS_ERROR_DETAIL_LIMIT] = String(detailLimit);
  return env;
}

/**
 * The discovery one engine boots over: only its own packages' part (`packages`, the group it
 * runs) — their registry entries and attributions, and an environment that holds only what
 * those leaves own (each package's `.env.defaults` keys and `PLURNK_EXECS_<TAG>_*` settings,
 * with their effective values) and the error-detail limit. Nothing of another package reaches
 * it: not its entries, its environment nor its name (`skipped` and `disabled` stay in the
 * service, which answers for those tags itself). The engine's thread host hands each package
 * only its own keys, as in the thread tier.
 */
export function buildEngineDiscovery(
  discovery: Discovery,
  detailLimit: number,
  packages: readonly string[],
): EngineDiscovery {
  const own = new Set(packages);
  const env: Record<string, string> = {};
  for (const name of own) Object.assign(env, packageOwnedEnv(discovery, name));
  env[PLURNK_EXECS_ERROR_DETAIL_LIMIT] = String(detailLimit);
  return {
    registry: new Map(
      [...discovery.registry]
        .filter(([, entry]) => own.has(entry.packageName))
        .map(([tag, entry]) => [tag, { ...entry }]),
    ),
    packageAttributions: new Map([...discovery.packageAttributions].filter(([name]) => own.has(name))),
    skipped: [],
    disabled: [],
    env,
    envDefaults: discovery.envDefaults.filter((floor) => own.has(floor.owner)).map((floor) => ({ ...floor })),
    // Where discovery looked: the engine's boot names it when the default runtime is missing, as the thread tier does.
    ...(discovery.searched === undefined ? {} : { searched: [...discovery.searched] }),
  };
}

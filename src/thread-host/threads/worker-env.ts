import { ErrorDetail, PLURNK_EXECS_ERROR_DETAIL_LIMIT } from '../../contracts/error-detail.js';
import { PlurnkExecsError } from '../../contracts/errors.js';
import type { Discovery } from '../../contracts/registry.js';
import { readEnvDefaults } from '../../discovery/env-defaults.js';
import { packageRoot } from '../../runtime/package-root.js';
import { Policy } from '../../discovery/policy.js';

/** Words that mark a variable name as a credential (matched against the name's `_`-separated words). */
const CREDENTIAL_WORDS = new Set([
  'TOKEN',
  'TOKENS',
  'SECRET',
  'SECRETS',
  'PASSWORD',
  'PASSWD',
  'PASS',
  'KEY',
  'KEYS',
  'APIKEY',
  'CREDENTIAL',
  'CREDENTIALS',
  'AUTH',
  'COOKIE',
]);
/** Fragments that mark a name as a credential wherever they appear (`PGPASSWORD`, `GHTOKEN`). */
const CREDENTIAL_FRAGMENTS = [
  'TOKEN',
  'SECRET',
  'PASSWORD',
  'PASSWD',
  'CREDENTIAL',
  'APIKEY',
  'PRIVATE_KEY',
  'ACCESS_KEY',
];

/** True when an environment variable's name looks like it holds a credential. */
export function isCredentialName(name: string): boolean {
  const upper = name.toUpperCase();
  if (CREDENTIAL_FRAGMENTS.some((fragment) => upper.includes(fragment))) return true;
  return upper.split(/[^A-Z0-9]+/).some((word) => CREDENTIAL_WORDS.has(word));
}

/**
 * The baseline `process.env` of an executor thread: the host environment without `PLURNK_*`
 * keys and credential-looking names, plus the error-detail limit every thread needs
 * (SubprocessExecutor refuses to run without it), plus `owned`: the configuration keys the
 * leaf's own package ships in its `.env.defaults` (such as the wasm leaf's memory cap) and its
 * `PLURNK_EXECS_<TAG>_*` keys, with their effective values (see `packageOwnedEnv`). A run's
 * own env replaces it inside the thread for that run, with the limit and `owned` kept beneath.
 */
export function workerBaseEnv(
  hostEnv: NodeJS.ProcessEnv,
  errorDetailLimit: number,
  owned: Record<string, string> = {},
): Record<string, string> {
  const env: Record<string, string> = {};
  for (const [key, value] of Object.entries(hostEnv)) {
    if (value === undefined || key.toUpperCase().startsWith('PLURNK_') || isCredentialName(key)) continue;
    env[key] = value;
  }
  Object.assign(env, owned);
  env[PLURNK_EXECS_ERROR_DETAIL_LIMIT] = String(errorDetailLimit);
  return env;
}

/**
 * A leaf's own configuration, with its effective values in discovery's environment (an
 * operator's value, else the package's floor): the keys `packageName` declared in its
 * `.env.defaults`, and every `PLURNK_EXECS_<TAG>_*` key of one of its registered tags (as 1.x
 * leaves read theirs, e.g. `PLURNK_EXECS_SEARCH_SEARXNG_URL`; a tag has no `_`, so that prefix
 * names exactly one tag). Policy keys stay with discovery: a leaf has no use for them. Only a
 * package's own keys reach its threads.
 */
export function packageOwnedEnv(
  discovery: Pick<Discovery, 'env' | 'envDefaults'> & Partial<Pick<Discovery, 'registry'>>,
  packageName: string,
): Record<string, string> {
  const owned: Record<string, string> = {};
  for (const { key, owner } of discovery.envDefaults ?? []) {
    const value = discovery.env?.[key];
    if (owner === packageName && value !== undefined && !Policy.isKey(key)) owned[key] = value;
  }
  const prefixes = [...(discovery.registry?.values() ?? [])]
    .filter((entry) => entry.packageName === packageName)
    .map((entry) => `${Policy.keyFor(entry.runtime)}_`);
  for (const [key, value] of Object.entries(discovery.env ?? {})) {
    const upper = key.toUpperCase();
    if (value !== undefined && prefixes.some((prefix) => upper.startsWith(prefix))) owned[key] = value;
  }
  return owned;
}

/**
 * The error-detail limit the host and its threads use: discovery's environment (operator
 * values over package floors) when it has a valid one, else this package's own
 * `.env.defaults` (for a Discovery built without `discover()`). Throws `invalid-configuration`
 * when neither does.
 */
export async function resolveErrorDetailLimit(discoveryEnv: NodeJS.ProcessEnv): Promise<number> {
  const configured = ErrorDetail.limit(discoveryEnv);
  if (configured !== undefined) return configured;
  const floors = await readEnvDefaults(packageRoot(), '@plurnk/plurnk-execs');
  const floor = ErrorDetail.limit(Object.fromEntries(floors.map(({ key, value }) => [key, value])));
  if (floor !== undefined) return floor;
  throw new PlurnkExecsError(
    'invalid-configuration',
    `${PLURNK_EXECS_ERROR_DETAIL_LIMIT} must be a non-negative integer; discovery.env has ${JSON.stringify(discoveryEnv[PLURNK_EXECS_ERROR_DETAIL_LIMIT] ?? null)} and the package's .env.defaults has none. Set it (the shipped value is 512).`,
  );
}

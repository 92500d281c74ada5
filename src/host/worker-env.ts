import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { ErrorDetail, PLURNK_EXECS_ERROR_DETAIL_LIMIT } from '../contracts/error-detail.js';
import { PlurnkExecsError } from '../contracts/errors.js';
import { packageRoot } from './package-root.js';

/** Words that mark a variable name as a credential (matched against the name's `_`-separated words). */
const CREDENTIAL_WORDS = new Set(['TOKEN', 'TOKENS', 'SECRET', 'SECRETS', 'PASSWORD', 'PASSWD', 'PASS', 'KEY', 'KEYS', 'APIKEY', 'CREDENTIAL', 'CREDENTIALS', 'AUTH', 'COOKIE']);
/** Fragments that mark a name as a credential wherever they appear (`PGPASSWORD`, `GHTOKEN`). */
const CREDENTIAL_FRAGMENTS = ['TOKEN', 'SECRET', 'PASSWORD', 'PASSWD', 'CREDENTIAL', 'APIKEY', 'PRIVATE_KEY', 'ACCESS_KEY'];

/** True when an environment variable's name looks like it holds a credential. */
export function isCredentialName(name: string): boolean {
  const upper = name.toUpperCase();
  if (CREDENTIAL_FRAGMENTS.some((fragment) => upper.includes(fragment))) return true;
  return upper.split(/[^A-Z0-9]+/).some((word) => CREDENTIAL_WORDS.has(word));
}

/**
 * The baseline `process.env` of an executor thread: the host environment without `PLURNK_*`
 * keys and credential-looking names, plus the error-detail limit every thread needs
 * (SubprocessExecutor refuses to run without it). A run's own env replaces it inside the
 * thread for that run.
 */
export function workerBaseEnv(hostEnv: NodeJS.ProcessEnv, errorDetailLimit: number): Record<string, string> {
  const env: Record<string, string> = {};
  for (const [key, value] of Object.entries(hostEnv)) {
    if (value === undefined || key.toUpperCase().startsWith('PLURNK_') || isCredentialName(key)) continue;
    env[key] = value;
  }
  env[PLURNK_EXECS_ERROR_DETAIL_LIMIT] = String(errorDetailLimit);
  return env;
}

/**
 * The error-detail limit the host and its threads use: discovery's environment (operator
 * values over package floors) when it has a valid one, else this package's own
 * `.env.defaults`. Throws `invalid-configuration` when neither does.
 */
export function resolveErrorDetailLimit(discoveryEnv: NodeJS.ProcessEnv): number {
  const configured = ErrorDetail.limit(discoveryEnv);
  if (configured !== undefined) return configured;
  const floor = ErrorDetail.limit(readEnvDefaults(join(packageRoot(), '.env.defaults')));
  if (floor !== undefined) return floor;
  throw new PlurnkExecsError(
    'invalid-configuration',
    `${PLURNK_EXECS_ERROR_DETAIL_LIMIT} must be a non-negative integer; discovery.env has ${JSON.stringify(discoveryEnv[PLURNK_EXECS_ERROR_DETAIL_LIMIT] ?? null)} and the package's .env.defaults has none. Set it (the shipped value is 512).`,
  );
}

/** `KEY=VALUE` lines of a `.env.defaults` file; `#` comments and blank lines are skipped. Missing file ⇒ {}. */
function readEnvDefaults(path: string): Record<string, string> {
  let text: string;
  try {
    text = readFileSync(path, 'utf8');
  } catch {
    return {};
  }
  const values: Record<string, string> = {};
  for (const line of text.split(/\r?\n/)) {
    const match = /^\s*([A-Za-z_][A-Za-z0-9_]*)\s*=\s*(.*?)\s*$/.exec(line);
    if (match && !line.trimStart().startsWith('#')) values[match[1]!] = match[2]!;
  }
  return values;
}

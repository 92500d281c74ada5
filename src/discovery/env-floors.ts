import { PlurnkExecsError } from '../contracts/errors.js';
import type { EnvDefault } from './env-defaults.js';
import { Policy } from './policy.js';

/** The supplied env with floors filled beneath it, and the catalog of every floor offered. */
export interface FlooredEnv {
  readonly env: NodeJS.ProcessEnv;
  readonly envDefaults: readonly EnvDefault[];
}

/**
 * Assembles package-owned floors beneath the operator's env (§executor-installation): a
 * floor fills only a key the env leaves unset, so `PLURNK_EXECS_<TAG>=1` from the operator
 * outranks a package's `0`. Policy keys are matched case-insensitively, as Policy reads them.
 * A key claimed by two packages fails hard naming both, first claimant first. The returned
 * env is a new object; the supplied one is not touched.
 */
export function applyEnvFloors(supplied: NodeJS.ProcessEnv, floors: readonly EnvDefault[]): FlooredEnv {
  const claimedBy = new Map<string, EnvDefault>();
  for (const floor of floors) {
    const identity = identifyKey(floor.key);
    const earlier = claimedBy.get(identity);
    if (earlier !== undefined) {
      throw new PlurnkExecsError(
        'invalid-env-defaults',
        `Conflicting .env.defaults: ${floor.key} is shipped by both "${earlier.owner}" (${earlier.key}=${earlier.value}) and "${floor.owner}" (${floor.key}=${floor.value}). Fix: only the package that owns a key may ship its default; remove it from one of them.`,
      );
    }
    claimedBy.set(identity, floor);
  }
  const setKeys = new Set(
    Object.entries(supplied)
      .filter(([, value]) => value !== undefined)
      .map(([key]) => identifyKey(key)),
  );
  const env: NodeJS.ProcessEnv = {};
  for (const floor of floors) if (!setKeys.has(identifyKey(floor.key))) env[floor.key] = floor.value;
  for (const [key, value] of Object.entries(supplied)) if (value !== undefined) env[key] = value;
  return Object.freeze({ env, envDefaults: Object.freeze([...floors]) });
}

// Policy reads PLURNK_EXECS_* keys in any case, so for them two spellings are one key.
function identifyKey(key: string): string {
  return Policy.isKey(key) ? key.toLowerCase() : key;
}

import { PLURNK_EXECS_ERROR_DETAIL_LIMIT } from '../contracts/error-detail.js';

/**
 * Makes this thread's `process.env` the run's environment when the run has one, else the
 * thread's baseline (the filtered host environment it was started with). The error-detail
 * limit of the baseline is kept beneath a run env that lacks it, because SubprocessExecutor
 * reads it from `process.env`. Returns the function that restores the baseline.
 */
export function applyRunEnv(runEnv: Record<string, string> | undefined, baseline: Readonly<Record<string, string | undefined>>): () => void {
  if (runEnv !== undefined) {
    const limit = baseline[PLURNK_EXECS_ERROR_DETAIL_LIMIT];
    replaceEnv(limit === undefined ? runEnv : { [PLURNK_EXECS_ERROR_DETAIL_LIMIT]: limit, ...runEnv });
  }
  return () => replaceEnv(baseline);
}

/** Writes only what differs: a `process.env` store costs far more than a read, and most runs changed nothing. */
function replaceEnv(next: Readonly<Record<string, string | undefined>>): void {
  const env = process.env;
  for (const key of Object.keys(env)) {
    if (!Object.hasOwn(next, key)) delete env[key];
  }
  for (const key of Object.keys(next)) {
    const value = next[key];
    if (value !== undefined && env[key] !== value) env[key] = value;
  }
}

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

function replaceEnv(next: Readonly<Record<string, string | undefined>>): void {
  for (const key of Object.keys(process.env)) {
    if (!Object.hasOwn(next, key)) delete process.env[key];
  }
  for (const [key, value] of Object.entries(next)) {
    if (value !== undefined) process.env[key] = value;
  }
}

import { PLURNK_EXECS_ERROR_DETAIL_LIMIT } from '../contracts/error-detail.js';

/** The thread's `process.env`, seen through a view that notes every change made through it. */
interface EnvWatch {
  readonly view: NodeJS.ProcessEnv;
  readonly real: NodeJS.ProcessEnv;
  /** Whether the environment may differ from the baseline. */
  changed: boolean;
}

let watch: EnvWatch | undefined;

/**
 * Puts a view in front of this thread's `process.env` that notes every set, define and delete
 * (reads pass straight through; values are still coerced to strings by the real object), so
 * that restoring the baseline after a run that changed nothing costs nothing: each access to
 * a worker's real `process.env` goes through an interceptor, and comparing all of it took
 * ~40 µs per run. Installed once per thread, before the leaf loads, so changes made at import
 * count too. A leaf that replaces `process.env` wholesale is caught at the next restore.
 */
export function watchEnvChanges(): void {
  if (watch !== undefined) return;
  const real = process.env;
  const note = () => {
    if (watch) watch.changed = true;
  };
  const view = new Proxy(real, {
    set: (target, key, value) => (note(), Reflect.set(target, key, value)),
    defineProperty: (target, key, descriptor) => (note(), Reflect.defineProperty(target, key, descriptor)),
    deleteProperty: (target, key) => (note(), Reflect.deleteProperty(target, key)),
  });
  // The baseline was taken from the same object: nothing has changed yet.
  watch = { view, real, changed: false };
  process.env = view;
}

/**
 * Makes this thread's `process.env` the run's environment when the run has one, else the
 * thread's baseline (the filtered host environment it was started with). The error-detail
 * limit of the baseline is kept beneath a run env that lacks it, because SubprocessExecutor
 * reads it from `process.env`. Returns the function that restores the baseline.
 */
export function applyRunEnv(runEnv: Record<string, string> | undefined, baseline: Readonly<Record<string, string | undefined>>): () => void {
  reclaim();
  if (runEnv !== undefined) {
    const limit = baseline[PLURNK_EXECS_ERROR_DETAIL_LIMIT];
    replaceEnv(watch?.real ?? process.env, limit === undefined ? runEnv : { [PLURNK_EXECS_ERROR_DETAIL_LIMIT]: limit, ...runEnv });
    if (watch) watch.changed = true;
  }
  return () => restoreEnv(baseline);
}

function restoreEnv(baseline: Readonly<Record<string, string | undefined>>): void {
  if (watch === undefined) return replaceEnv(process.env, baseline);
  reclaim();
  if (!watch.changed) return;
  replaceEnv(watch.real, baseline);
  watch.changed = false;
}

/** When the leaf assigned its own object to `process.env` (at import or in a run), puts the thread's back. */
function reclaim(): void {
  if (watch === undefined || process.env === watch.view) return;
  process.env = watch.view;
  watch.changed = true;
}

/** Writes only what differs: a `process.env` store costs far more than a read. */
function replaceEnv(env: NodeJS.ProcessEnv, next: Readonly<Record<string, string | undefined>>): void {
  for (const key of Object.keys(env)) {
    if (!Object.hasOwn(next, key)) delete env[key];
  }
  for (const key of Object.keys(next)) {
    const value = next[key];
    if (value !== undefined && env[key] !== value) env[key] = value;
  }
}

import { PLURNK_EXECS_ERROR_DETAIL_LIMIT } from '../contracts/error-detail.js';

type Env = Readonly<Record<string, string | undefined>>;

/** A thread's environment between runs: the baseline it started with, kept for every run. */
export interface ThreadEnv {
  /**
   * Makes `process.env` the run's environment when the run has one, else leaves the
   * baseline. The error-detail limit and the leaf's own keys of the baseline are kept beneath
   * a run env that lacks them, because leaves read them from `process.env` (SubprocessExecutor
   * the limit, a 1.x leaf its settings). Returns the function that puts the baseline back.
   */
  applyRun(runEnv: Record<string, string> | undefined): () => void;
}

/**
 * Takes this thread's `process.env` as its baseline and puts a view in front of it that
 * notes every set, define and delete (reads pass straight through; values are still coerced
 * to strings by the real object), so that restoring after a run that changed nothing costs
 * nothing: each access to a worker's real `process.env` goes through an interceptor, and
 * comparing all of it took ~40 µs per run. Call it before the leaf loads, so changes made at
 * import count too. A leaf that assigns its own object to `process.env` gets the view back
 * before the next run starts and after every run. `ownedKeys` are the leaf's own settings.
 */
export function watchEnvChanges(ownedKeys: readonly string[] = []): ThreadEnv {
  const real = process.env;
  const baseline: Env = { ...real };
  const kept: Record<string, string> = {};
  for (const key of [...ownedKeys, PLURNK_EXECS_ERROR_DETAIL_LIMIT]) {
    const value = baseline[key];
    if (value !== undefined) kept[key] = value;
  }
  let changed = false;
  const note = () => void (changed = true);
  const view = new Proxy(real, {
    set: (target, key, value) => (note(), Reflect.set(target, key, value)),
    defineProperty: (target, key, descriptor) => (note(), Reflect.defineProperty(target, key, descriptor)),
    deleteProperty: (target, key) => (note(), Reflect.deleteProperty(target, key)),
  });
  process.env = view;
  const reclaim = () => {
    if (process.env === view) return;
    process.env = view;
    changed = true;
  };
  const restore = () => {
    reclaim();
    if (!changed) return;
    replaceEnv(real, baseline);
    changed = false;
  };
  return {
    applyRun(runEnv) {
      reclaim();
      if (runEnv !== undefined) {
        replaceEnv(real, { ...kept, ...runEnv });
        changed = true;
      }
      return restore;
    },
  };
}

/** Writes only what differs: a `process.env` store costs far more than a read. */
function replaceEnv(env: NodeJS.ProcessEnv, next: Env): void {
  for (const key of Object.keys(env)) {
    if (!Object.hasOwn(next, key)) delete env[key];
  }
  for (const key of Object.keys(next)) {
    const value = next[key];
    if (value !== undefined && env[key] !== value) env[key] = value;
  }
}

/**
 * The seam through which every process group an executor starts is reported. It lives on a
 * well-known global symbol rather than in module state so that every copy of this package
 * loaded into one thread (a leaf that bundles its own) reports to the same listeners; the
 * host's worker entry installs a listener that forwards each id out of the thread.
 */
const KEY = Symbol.for('@plurnk/plurnk-execs.process-groups');

/** Called with the id of each process group an executor starts (the leader's pid). */
export type ProcessGroupListener = (pgid: number) => void;

function listeners(): Set<ProcessGroupListener> {
  const holder = globalThis as { [KEY]?: Set<ProcessGroupListener> };
  holder[KEY] ??= new Set();
  return holder[KEY];
}

/**
 * Subscribes to process-group starts in this thread. Returns the unsubscribe function.
 * A listener that throws is ignored so that reporting can never break a run.
 */
export function onProcessGroup(listener: ProcessGroupListener): () => void {
  listeners().add(listener);
  return () => listeners().delete(listener);
}

/** Reports that a process group `pgid` was started. Executors that spawn outside `SubprocessExecutor` call this too. */
export function reportProcessGroup(pgid: number): void {
  for (const listener of listeners()) {
    try {
      listener(pgid);
    } catch {
      // A broken listener must not break the run that reported.
    }
  }
}

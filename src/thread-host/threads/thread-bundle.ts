import { isBundleFresh as isFresh } from '../../runtime/bundle-freshness.js';
import { packageRoot } from '../../runtime/package-root.js';

/**
 * The resolve condition under which `@plurnk/plurnk-execs` is the bundled thread root
 * (package.json's exports; worker/worker-entry.ts checks for the same flag).
 */
export const THREAD_CONDITION = 'plurnk-execs-thread';

/** Whether threads start on the bundle: decided on the first start, once per process. */
let usable: boolean | undefined;

/**
 * The `execArgv` of a new executor thread: the host's own flags and {@link THREAD_CONDITION},
 * so the thread loads its start path as one module (dist/worker/thread-root.js, built by
 * scripts/bundle-thread.js) instead of ~70. Undefined — the thread inherits the host's flags
 * and loads the modules one by one, as before — when the bundle is missing or older than
 * any module it holds (a `tsc -b` without the bundling step), or once {@link refuseBundle} said
 * the host's flags cannot be given to a thread. Every flag of the host's is given again: a
 * thread started with `execArgv` takes no flag of its parent's but these (without Node's
 * permission flags among them, a thread would run outside the model).
 */
export function threadExecArgv(): string[] | undefined {
  usable ??= isBundleFresh(packageRoot());
  if (!usable) return undefined;
  return [...process.execArgv, `--conditions=${THREAD_CONDITION}`];
}

/** Node refused {@link threadExecArgv} (ERR_WORKER_INVALID_EXEC_ARGV: a flag of the host's that holds the whole process): threads start unbundled from now on. */
export function refuseBundle(): void {
  usable = false;
}

/** True when `root`'s dist/worker/thread-root.js exists and no module it was built from is newer. */
export function isBundleFresh(root: string): boolean {
  return isFresh(root, 'dist/worker/thread-root.js');
}

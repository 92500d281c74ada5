import { liveGroupMembers } from '../../src/index.js';

/**
 * Waits until no living (non-zombie) process is left in any of `pgids`, polling /proc.
 * Resolves with the pids still alive when `withinMs` ran out (empty on success), so a test
 * asserts on what survived rather than on how long it took.
 */
export async function survivorsAfter(pgids: number[], withinMs = 5000): Promise<number[]> {
  const deadline = Date.now() + withinMs;
  for (;;) {
    const alive = pgids.flatMap((pgid) => liveGroupMembers(pgid));
    if (alive.length === 0 || Date.now() >= deadline) return alive;
    await new Promise((resolve) => setTimeout(resolve, 25));
  }
}

/** Resolves once `predicate()` holds, polling; rejects with `what` after `withinMs`. */
export async function until(predicate: () => boolean, what: string, withinMs = 10_000): Promise<void> {
  const deadline = Date.now() + withinMs;
  while (!predicate()) {
    if (Date.now() >= deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
}

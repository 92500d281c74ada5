import type { Retirements } from './retirements.js';
import type { ThreadTable } from './thread-table.js';
import { describeIdleLoad } from './thread-policy.js';

/** Threads that died while idle (an uncaught error from a leaf's stray timer) are retired, not handed out. */
export function retireDeadIdle(threads: ThreadTable, retiring: Retirements): void {
  for (const handle of threads.inState('idle')) {
    if (handle.deathReason === undefined) continue;
    threads.delete(handle);
    void retiring.retire(handle, 'crashed', Promise.resolve(), true);
  }
}

/**
 * Retires each idle thread whose event loop stays busy with no task in flight — a leaf's
 * interval or loop left running at import or after its run (65–80 % of a core was measured)
 * — and counts it as a crash of the tag (`onCrash`), so a leaf that does it in every thread is
 * degraded. No replacement is started here (it would do the same): the next run starts one.
 */
export function retireBusyIdle(
  threads: ThreadTable,
  retiring: Retirements,
  onCrash: ((why: string) => void) | undefined,
): void {
  for (const handle of threads.inState('idle')) {
    const load = handle.judgeIdleLoad();
    if (load?.retire !== true) continue;
    threads.delete(handle);
    const why = describeIdleLoad(load.utilization);
    onCrash?.(why);
    void retiring.retire(handle, 'idle-load', Promise.resolve(), true, why);
  }
}

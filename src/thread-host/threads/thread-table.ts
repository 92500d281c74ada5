import type { ThreadCounts } from '../../model/observe/host-stats.js';
import type { WorkerHandle } from './worker-handle.js';
import { sparesTarget } from './thread-policy.js';

/**
 * Where a thread of the tag is in its life, as the tag sees it: `idle` (waiting for a task,
 * perhaps still `starting` — warming up — inside its handle) or `busy` (lent out). A retired
 * thread leaves the table; its handle goes `retiring`, then `dead` (see {@link WorkerHandle.state}).
 */
export interface ThreadEntry {
  state: 'idle' | 'busy';
  /** Lent to a run: its release starts a spare when none is left. */
  lentToRun: boolean;
}

/** Every live thread of one tag, idle ones in the order they were given back (the policy reads that order). */
export class ThreadTable extends Map<WorkerHandle, ThreadEntry> {
  /** The threads in `state`; idle ones in the order they were given back. */
  inState(state: ThreadEntry['state']): WorkerHandle[] {
    const found: WorkerHandle[] = [];
    for (const [handle, entry] of this) if (entry.state === state) found.push(handle);
    return found;
  }

  /** Runs of the tag under way: lent a thread whose leaf is loaded (a run waiting for its thread's start is not). */
  running(): number {
    let count = 0;
    for (const [handle, entry] of this) if (entry.lentToRun && handle.loaded) count += 1;
    return count;
  }

  /** Idle threads that never ran a run: the tag's spares, warm or still starting. */
  spares(): WorkerHandle[] {
    const found: WorkerHandle[] = [];
    for (const [handle, entry] of this) if (entry.state === 'idle' && handle.runs === 0) found.push(handle);
    return found;
  }

  /** How many spares `wanted` runs at once call for beyond the idle spares there are (negative when there are more; thread-policy.ts). */
  sparesMissing(wanted: number): number {
    return sparesTarget(this.inState('idle'), wanted) - this.spares().length;
  }

  /** The threads by state, for `host.stats()`; `retiring` is the tag's to add. */
  counts(retiring: number): ThreadCounts {
    const counts = { starting: 0, idle: 0, busy: 0, retiring, spares: 0 };
    for (const [handle, { state }] of this) {
      counts[state === 'busy' ? 'busy' : handle.state === 'starting' ? 'starting' : 'idle'] += 1;
      if (state === 'idle' && handle.runs === 0) counts.spares += 1;
    }
    return counts;
  }
}

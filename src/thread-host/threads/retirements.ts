import type { RetireReason } from '../../model/observe/observe-events.js';
import { eventText, publishEvent } from '../../model/observe/publish-event.js';
import { endThread } from './reaper.js';
import type { WorkerHandle } from './worker-handle.js';

/**
 * The threads of one tag on their way out: each is ended off the caller's path (reaper.ts:
 * terminated, what it left reaped), tracked until it is gone so the tag's close can wait for
 * it, and announced with why on `plurnk-execs:thread:retired` (only when someone listens).
 */
export class Retirements {
  private readonly pending = new Set<Promise<void>>();

  constructor(
    private readonly tag: string,
    private readonly graceMs: number,
    /** Called first for each thread retired (the tag gives back the spare budget it held). */
    private readonly onRetire: (handle: WorkerHandle) => void,
  ) {}

  /**
   * Ends `handle` once `after` settled; `sweep` looks for its marker too (it reported a group or
   * ended badly). `detail` says more than `why` (an idle load); a crashed thread's death says it.
   */
  retire(
    handle: WorkerHandle,
    why: RetireReason,
    after: Promise<void> = Promise.resolve(),
    sweep = false,
    detail?: string,
  ): Promise<void> {
    this.onRetire(handle);
    publishEvent('plurnk-execs:thread:retired', () => {
      const said = detail ?? (why === 'crashed' ? handle.deathReason : undefined);
      return {
        tag: this.tag,
        threadId: handle.threadId,
        why,
        detail: said === undefined ? null : eventText(said),
        runs: handle.runs,
      };
    });
    const done = endThread(handle, this.graceMs, after, sweep);
    this.pending.add(done);
    void done.finally(() => this.pending.delete(done));
    return done;
  }

  /** Threads told to end that are not gone yet. */
  get size(): number {
    return this.pending.size;
  }

  /** Resolves once every retirement begun so far is over (none rejects). */
  async settled(): Promise<void> {
    await Promise.all([...this.pending]);
  }
}

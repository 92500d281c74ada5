import type { WorkerHandle } from './worker-handle.js';

/** What a borrowed thread is for: a run counts toward recycling; a probe or effect call does not. */
export type Purpose = 'run' | 'call';

/** How a task waiting for a thread got one: a start slot to start its own, or a thread handed over. */
export type Admitted = { readonly slot: () => void } | { readonly handle: WorkerHandle };

/** A task waiting in the admission queue, and how to hand it a thread. */
export interface Waiter {
  readonly purpose: Purpose;
  readonly take: (handle: WorkerHandle) => void;
}

/**
 * The tasks of one tag waiting in the admission queue for a start slot. A thread of the tag
 * that becomes free meanwhile — one given back under `'never'` or `afterRuns`, a spare just
 * started — goes to the oldest of them at once, instead of idling while it waits for a slot to
 * start a thread it no longer needs.
 */
export class Handoffs {
  private readonly waiting: Waiter[] = [];

  /**
   * Waits for a start slot through `enter` (which must give up when `leave` aborts), or for a
   * thread handed over first: the wait in the queue is then left, and a slot that comes anyway
   * is given back. Whichever comes first claims the task, synchronously for a handover, so a
   * thread is never handed to a task that already has its slot. Rejects as `enter` does.
   */
  admit(purpose: Purpose, enter: (leave: AbortSignal) => Promise<() => void>): Promise<Admitted> {
    const leave = new AbortController();
    return new Promise<Admitted>((resolve, reject) => {
      let claimed = false;
      const waiter: Waiter = {
        purpose,
        take: (handle) => {
          claimed = true;
          leave.abort();
          resolve({ handle });
        },
      };
      this.waiting.push(waiter);
      const settle = () => {
        if (claimed) return false;
        claimed = true;
        const at = this.waiting.indexOf(waiter);
        if (at >= 0) this.waiting.splice(at, 1);
        return true;
      };
      enter(leave.signal).then(
        (slot) => (settle() ? resolve({ slot }) : slot()),
        (error: unknown) => {
          if (settle()) reject(error);
        },
      );
    });
  }

  /** The oldest waiting task, taken out of the queue (hand it a thread with `take`); undefined when none waits. */
  next(): Waiter | undefined {
    return this.waiting.shift();
  }
}

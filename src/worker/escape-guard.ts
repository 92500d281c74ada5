import { serializeError, type SerializedError } from '../contracts/serialized-error.js';

/** An error that escaped the leaf: thrown from a timer or callback, or a rejection nobody handled. */
export interface Escape {
  readonly kind: 'uncaught-exception' | 'unhandled-rejection';
  readonly error: SerializedError;
}

/** Escapes seen while one task runs. */
export interface TaskEscapes {
  /** Resolves at the first escape; never rejects. */
  readonly escaped: Promise<Escape>;
  /** The first escape, if any. */
  first(): Escape | undefined;
  /** Stops collecting: later escapes are strays again. */
  end(): void;
}

/** The thread's escape handling. */
export interface EscapeGuard {
  /** Starts collecting escapes for the task about to run. */
  begin(): TaskEscapes;
}

/**
 * Catches every error that escapes a leaf in this thread. Without this a throw from a timer
 * kills the thread with nothing but an exit code, and output the leaf wrote just before can
 * lose the race with the death. While a task runs the first escape is handed to that task,
 * which answers with it (the host then retires the thread). Between tasks the escape goes to
 * `onStray`: nothing runs that could own it, so the host is told and retires the thread.
 */
export function guardEscapes(onStray: (escape: Escape) => void): EscapeGuard {
  let current: ((escape: Escape) => void) | undefined;
  const handle = (kind: Escape['kind']) => (error: unknown) => {
    const escape = { kind, error: serializeError(error) };
    if (current) current(escape);
    else onStray(escape);
  };
  process.on('uncaughtException', handle('uncaught-exception'));
  process.on('unhandledRejection', handle('unhandled-rejection'));
  return {
    begin() {
      let first: Escape | undefined;
      let resolve!: (escape: Escape) => void;
      const escaped = new Promise<Escape>((r) => (resolve = r));
      const record = (escape: Escape) => {
        first ??= escape;
        resolve(escape);
      };
      current = record;
      return {
        escaped,
        first: () => first,
        end: () => {
          if (current === record) current = undefined;
        },
      };
    },
  };
}

/** How many ref'd timers and immediates are pending in this thread now (the heartbeat's interval among the timers). */
function pendingCallbacks(): { timers: number; immediates: number } {
  let timers = 0;
  let immediates = 0;
  for (const kind of process.getActiveResourcesInfo()) {
    if (kind === 'Timeout') timers += 1;
    else if (kind === 'Immediate') immediates += 1;
  }
  return { timers, immediates };
}

/** How many timers are pending in this thread (the heartbeat's interval among them). */
export function countPendingTimers(): number {
  return pendingCallbacks().timers;
}

/**
 * Lets timers and immediates the leaf queued before its call settled run now, inside the
 * task, so an error they throw is charged to the call that scheduled them. A timer of 0 ms
 * queued earlier always fires before this one; longer timers may still fire later, and are
 * then strays. Waiting for the timers phase costs at least a millisecond, so it is done only
 * when more timers are pending than `timersAtStart` (counted when the call began); a turn for
 * the immediates only when one is queued (most runs queue none, and each paid a turn of its
 * thread's loop). An immediate the leaf unref'd is not counted: it runs after the task, like a
 * late timer.
 */
export async function drainQueuedCallbacks(timersAtStart: number): Promise<void> {
  const pending = pendingCallbacks();
  if (pending.timers > timersAtStart) await new Promise((resolve) => setTimeout(resolve, 0));
  else if (pending.immediates === 0) return;
  await new Promise((resolve) => setImmediate(resolve));
}

import { onAbort } from '../../runtime/abort-fanout.js';

/** Which watch forced a run's end: the caller's abort or the deadline past grace, the host closing, or a limit (`interrupt`) past grace. */
export type WatchEnd = 'cancelled' | 'timeout' | 'closed' | 'fault';

/** The cancellation state of one run. */
export interface CancelWatch {
  /** Resolves when the host must stop waiting for the run: grace ran out, or the host closed. */
  readonly forced: Promise<WatchEnd>;
  /** True once the run's deadline passed (its outcome is then 504 whatever the leaf answers). */
  timedOut(): boolean;
  /** The host itself cancels the run (a limit it broke): `{ housekeeping: true, graceMs }`, then the same grace. */
  interrupt(): void;
  dispose(): void;
}

/**
 * Watches a run's caller signal, deadline and the host's closing signal. The first of the
 * caller's abort or the deadline calls `abort` with the reason the leaf should see (the
 * caller's own reason; `{ housekeeping: true, graceMs }` for the deadline) and starts the
 * grace period; `forced` resolves when the grace runs out. Closing the host forces at once.
 */
export function watchCancellation(options: {
  signal: AbortSignal | undefined;
  timeoutMs: number | undefined;
  graceMs: number;
  closing: AbortSignal;
  abort: (reason: unknown) => void;
}): CancelWatch {
  const { signal, timeoutMs, graceMs, closing, abort } = options;
  const timers: NodeJS.Timeout[] = [];
  let aborted = false;
  let deadlinePassed = false;
  let force!: (end: WatchEnd) => void;
  const forced = new Promise<WatchEnd>((resolve) => (force = resolve));

  const begin = (reason: unknown, end: WatchEnd) => {
    if (aborted) return;
    aborted = true;
    abort(reason);
    timers.push(setTimeout(() => force(end), graceMs));
  };
  const onSignal = () => begin(signal?.reason, 'cancelled');
  const onClosing = () => {
    abort(closing.reason);
    force('closed');
  };

  if (timeoutMs !== undefined) {
    timers.push(
      setTimeout(() => {
        deadlinePassed = !aborted;
        begin({ housekeeping: true, graceMs }, 'timeout');
      }, timeoutMs),
    );
  }
  // Both signals are shared (a service passes one signal to many EXECs; closing is every run's):
  // one listener each, fanned out (abort-fanout.ts), rather than one per run. Closing's stays
  // between runs: it lives as long as the host.
  const unsubscribe: (() => void)[] = [];
  if (signal?.aborted) onSignal();
  else if (signal !== undefined) unsubscribe.push(onAbort(signal, onSignal));
  if (closing.aborted) onClosing();
  else unsubscribe.push(onAbort(closing, onClosing, true));

  return {
    forced,
    timedOut: () => deadlinePassed,
    interrupt: () => begin({ housekeeping: true, graceMs }, 'fault'),
    dispose() {
      for (const timer of timers) clearTimeout(timer);
      for (const leave of unsubscribe) leave();
    },
  };
}

/** The one listener the fan-out keeps on a signal, and who it calls. */
interface Fanout {
  readonly listeners: Set<() => void>;
  readonly fire: () => void;
  /** Whether the listener stays on the signal when the last subscriber leaves (`keep`). */
  kept: boolean;
}

const fanouts = new WeakMap<AbortSignal, Fanout>();

/**
 * Calls `listener` once when `signal` aborts; returns the function that unsubscribes it. Every
 * subscriber of one signal shares a single 'abort' listener on it, removed when the last one
 * leaves: a service passes one signal to many EXECs, and the host's closing signal is shared by
 * every run in flight, so a listener per run would pile up (Node prints
 * `MaxListenersExceededWarning` on the service's stderr past 10) and keep every run's closure
 * alive as long as the signal lives. A listener that throws is dropped, never stopping the others.
 * With `keep`, the one listener stays on the signal after the last subscriber left: for a signal
 * that lives as long as its subscribers come (the host's closing), which runs one at a time
 * would otherwise add and remove at every run.
 */
export function onAbort(signal: AbortSignal, listener: () => void, keep = false): () => void {
  let fanout = fanouts.get(signal);
  if (fanout === undefined) {
    const listeners = new Set<() => void>();
    const fire = () => {
      fanouts.delete(signal);
      for (const each of [...listeners]) {
        try {
          each();
        } catch {
          // One subscriber's failure must not keep the abort from the others.
        }
      }
      listeners.clear();
    };
    fanout = { listeners, fire, kept: false };
    fanouts.set(signal, fanout);
    signal.addEventListener('abort', fire, { once: true });
  }
  if (keep) fanout.kept = true;
  // A fresh function per subscription: the same listener subscribed twice is called twice.
  const entry = () => listener();
  fanout.listeners.add(entry);
  const own = fanout;
  return () => {
    if (!own.listeners.delete(entry) || own.listeners.size > 0 || own.kept) return;
    if (fanouts.get(signal) === own) fanouts.delete(signal);
    signal.removeEventListener('abort', own.fire);
  };
}

/** How many subscribers share the one listener on `signal` (0 when none): for tests and diagnostics. */
export function abortSubscribers(signal: AbortSignal): number {
  return fanouts.get(signal)?.listeners.size ?? 0;
}

import { onAbort } from './abort-fanout.js';

/** What {@link withDeadline} rejects with when its deadline passes first. */
export class TimeoutError extends Error {
  override readonly name = 'TimeoutError';
}

/**
 * Settles like `work`, unless `ms` pass first (rejects with a {@link TimeoutError} carrying
 * `message`) or `signal` aborts (rejects with its reason). The host's one deadline helper. It
 * replaced p-timeout, which builds a TimeoutError with a captured stack for every call — more
 * than a warm `effect()` round trip costs: here the error is made only when the deadline
 * passes. The timer and the abort subscription are removed once `work` settles.
 */
export function withDeadline<T>(work: Promise<T>, ms: number, message: string, signal?: AbortSignal): Promise<T> {
  if (signal?.aborted) {
    work.catch(() => {});
    return Promise.reject(abortReason(signal));
  }
  return new Promise<T>((resolve, reject) => {
    const abort = () => {
      settle();
      reject(abortReason(signal!));
    };
    const timer = setTimeout(() => {
      settle();
      reject(new TimeoutError(message));
    }, ms);
    // One shared listener per signal (abort-fanout.ts): every call in flight waits on the host's closing signal.
    const unsubscribe = signal === undefined ? undefined : onAbort(signal, abort);
    const settle = () => {
      clearTimeout(timer);
      unsubscribe?.();
    };
    work.then(
      (value) => {
        settle();
        resolve(value);
      },
      (error: unknown) => {
        settle();
        reject(error);
      },
    );
  });
}

function abortReason(signal: AbortSignal): unknown {
  return signal.reason ?? new DOMException('This operation was aborted.', 'AbortError');
}

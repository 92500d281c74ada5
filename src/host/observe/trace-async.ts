import type { TracingChannel } from 'node:diagnostics_channel';

/**
 * Runs `call` traced on `tracing` as `TracingChannel.tracePromise` would — `start` (binding any
 * store a subscriber bound to it, so an APM's async context follows the call), `end` once the
 * call returned its promise, then `asyncStart`/`asyncEnd` when it settles, or `error` — but
 * with one `context` the host fills itself: `onSettled` or `onError` write plain data into it
 * before it is published, where `tracePromise` would put the whole resolved value (an outcome,
 * with a leaf's text in it) or a raw error. Resolves and rejects as `call` does.
 */
export function traceAsync<C extends object, T>(
  tracing: TracingChannel<C, C>,
  context: C,
  call: () => Promise<T>,
  onSettled: (value: T) => void,
  onError: (error: unknown) => void,
): Promise<T> {
  return tracing.start.runStores(context, () => {
    let promise: Promise<T>;
    try {
      promise = call();
    } catch (error) {
      onError(error);
      tracing.error.publish(context);
      throw error;
    } finally {
      tracing.end.publish(context);
    }
    return promise.then(
      (value) => {
        onSettled(value);
        tracing.asyncStart.publish(context);
        tracing.asyncEnd.publish(context);
        return value;
      },
      (error: unknown) => {
        onError(error);
        tracing.error.publish(context);
        tracing.asyncStart.publish(context);
        tracing.asyncEnd.publish(context);
        throw error;
      },
    );
  });
}

import type { SharedTicker } from '../../runtime/shared-ticker.js';

/** Watches one task's thread for signs of life. */
export interface HeartbeatWatch {
  /** Any message from the thread: it is alive. */
  heard(): void;
  /** The leaf is loaded and the call started: from now on silence is measured. */
  started(): void;
  /** How long the thread has been silent (ms). */
  silentFor(): number;
  dispose(): void;
}

/**
 * Calls `onSilent` once when the thread stops answering: the call started and nothing was
 * heard for `unresponsiveMs`, or the call never started (no `started`) within `ackMs` of
 * posting (a thread that cannot start, or a leaf whose import never finishes). Checks at each tick of `ticker`. Being slow is not being
 * unresponsive: a thread that keeps sending heartbeats never trips this, however long its
 * call takes; that is what deadlines (`timeoutMs`) are for.
 */
export function watchHeartbeat(options: {
  ackMs: number;
  unresponsiveMs: number;
  /** The host's heartbeat ticker (every `limits.heartbeatMs`), shared by every run's watch. */
  ticker: SharedTicker;
  onSilent: (detail: string) => void;
}): HeartbeatWatch {
  const { ackMs, unresponsiveMs, ticker, onSilent } = options;
  const posted = performance.now();
  let lastHeard = posted;
  let running = false;
  let fired = false;
  const unwatch = ticker.add(() => {
    if (fired) return;
    const now = performance.now();
    if (!running && now - posted > ackMs) {
      fired = true;
      onSilent(
        `the worker thread did not acknowledge the run within loadTimeoutMs ${ackMs}ms (the leaf did not finish loading)`,
      );
    } else if (running && now - lastHeard > unresponsiveMs) {
      fired = true;
      onSilent(
        `the worker thread stopped answering: no heartbeat for ${Math.round(now - lastHeard)}ms (limits.unresponsiveMs ${unresponsiveMs}); a synchronous loop or a blocking call holds it`,
      );
    }
  });
  return {
    heard: () => void (lastHeard = performance.now()),
    started: () => {
      running = true;
      lastHeard = performance.now();
    },
    silentFor: () => performance.now() - lastHeard,
    dispose: unwatch,
  };
}

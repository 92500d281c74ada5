/** What the watchdog reports when it gives up on an engine: how long it heard nothing. */
export type SilenceHandler = (silentMs: number) => void;

/** A running watchdog: `beat()` on every frame from the engine, `stop()` when the engine is gone. */
export interface EngineWatchdog {
  beat(): void;
  stop(): void;
  /** The time the service's event loop was free to read the engine since the watch began (ms), as of the last tick. */
  freeMs(): number;
}

/**
 * Watches a booted engine's main thread, which sends a heartbeat frame every `everyMs`: once no
 * frame came for `silentMs`, `onSilent` is called (once) and the engine is to be killed. Only
 * time the service's own event loop was free to read counts as silence — a tick that fires
 * late (the service itself was blocked, and the frames may be waiting unread) counts as two
 * periods at most — so a busy service never mistakes its own stall for a stuck engine. The same
 * clock (`freeMs`) bounds what the engine owes the service (call-ledger.ts): `onTick` is called
 * with it at every tick the engine was not found silent.
 */
export function watchEngine(
  everyMs: number,
  silentMs: number,
  onSilent: SilenceHandler,
  onTick?: (freeMs: number) => void,
): EngineWatchdog {
  let silent = 0;
  let free = 0;
  let lastTick = Date.now();
  const timer = setInterval(() => {
    const now = Date.now();
    const elapsed = Math.min(now - lastTick, 2 * everyMs);
    silent += elapsed;
    free += elapsed;
    lastTick = now;
    if (silent < silentMs) return onTick?.(free);
    clearInterval(timer);
    onSilent(silent);
  }, everyMs);
  // The engine's own handles keep the service's loop alive while a host is open; this adds none.
  timer.unref();
  return {
    beat: () => void (silent = 0),
    stop: () => clearInterval(timer),
    freeMs: () => free,
  };
}

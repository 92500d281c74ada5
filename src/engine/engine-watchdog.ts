/** What the watchdog reports when it gives up on an engine: how long it heard nothing. */
export type SilenceHandler = (silentMs: number) => void;

/** A running watchdog: `beat()` on every frame from the engine, `stop()` when the engine is gone. */
export interface EngineWatchdog {
  beat(): void;
  stop(): void;
}

/**
 * Watches a booted engine's main thread, which sends a heartbeat frame every `everyMs`: once no
 * frame came for `silentMs`, `onSilent` is called (once) and the engine is to be killed. Only
 * time the service's own event loop was free to read counts as silence — a tick that fires
 * late (the service itself was blocked, and the frames may be waiting unread) counts as two
 * periods at most — so a busy service never mistakes its own stall for a stuck engine.
 */
export function watchEngine(everyMs: number, silentMs: number, onSilent: SilenceHandler): EngineWatchdog {
  let silent = 0;
  let lastTick = Date.now();
  const timer = setInterval(() => {
    const now = Date.now();
    silent += Math.min(now - lastTick, 2 * everyMs);
    lastTick = now;
    if (silent < silentMs) return;
    clearInterval(timer);
    onSilent(silent);
  }, everyMs);
  // The engine's own handles keep the service's loop alive while a host is open; this adds none.
  timer.unref();
  return {
    beat: () => void (silent = 0),
    stop: () => clearInterval(timer),
  };
}

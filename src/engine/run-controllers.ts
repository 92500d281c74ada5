import { getEventListeners } from 'node:events';

/** How many unused controllers the engine keeps at most: more than the runs it has in flight at once, usually. */
const SPARES = 64;

/**
 * The AbortControllers behind the engine's runs (the service's abort frames reach a run through
 * one). A run takes one; when it ends, its controller is kept for a later run if its signal never
 * aborted and nothing listens on it any more, so no state of the run stays in it. On Node 20 a
 * new AbortSignal per run made the young generation's collections promote much of each run's
 * garbage: the engine's main thread promoted ~230 KB per scavenge with a controller per no-op
 * run, ~75 KB with one reused, and a loop that only makes a signal per iteration promotes
 * ~830 KB per scavenge there, none on Node 26 (docs/performance.md). Only the engine's own runs
 * use these: a leaf's signal is made in its thread, one per run, and never reused.
 */
export class RunControllers {
  private readonly spares: AbortController[] = [];

  /** A controller whose signal has not aborted and has no listener. */
  take(): AbortController {
    return this.spares.pop() ?? new AbortController();
  }

  /** The controller of a run that ended (after the run's id can no longer reach it): kept when it is as new. */
  give(controller: AbortController): void {
    if (this.spares.length >= SPARES || controller.signal.aborted) return;
    if (getEventListeners(controller.signal, 'abort').length > 0) return;
    this.spares.push(controller);
  }
}

import type { Limits } from '../contracts/limits.js';
import type { ResolvedHostOptions } from '../model/host-options.js';

/** The fd of the framed pipe between the service and its engine (stdin, stdout, stderr, then this). */
export const ENGINE_CHANNEL_FD = 3;

/** Bound on one frame from the service (the boot frame holds the whole registry): it trusts its service. */
export const SERVICE_FRAME_BYTES = 256 * 1024 * 1024;

/** Bytes of the engine's own stdout and stderr the service keeps (the rest is counted). */
export const ENGINE_OUTPUT_KEPT_BYTES = 4096;

/** How long close() waits for the engine to close its host before it is killed (on top of the grace). */
export const ENGINE_CLOSE_MARGIN_MS = 5000;

/** Backoff between engine restarts: doubling from the first, capped at the last. */
export const ENGINE_RESTART_BACKOFF_MS = { first: 100, max: 5000 } as const;

/**
 * Bound on one frame from the engine: an outcome holds at most the run's output, notices,
 * violations, Problem and console text (each already budgeted by the thread host), twice over
 * for two-byte strings, plus room for the envelope. A larger frame is corrupt.
 */
export function engineFrameBytes(limits: Limits): number {
  const budgets =
    limits.outputBytes + limits.noticeBytes + limits.violationBytes + limits.problemBytes + limits.consoleBytes;
  return 2 * budgets + 4 * 1024 * 1024;
}

/** How long a run or `effect()` arriving while the engine restarts waits for it before 503 `engine-unavailable`. */
export function engineWaitMs(options: ResolvedHostOptions): number {
  return options.loadTimeoutMs + options.probeTimeoutMs + 5000;
}

/** What the service adds to the bounds its engine keeps before it holds the engine to them itself. */
export const ENGINE_DEADLINE_MARGIN_MS = 5000;

/**
 * The service's own deadline for an `effect()` call it sent an engine (ms from the send): the
 * longest an honest engine takes — a thread start waited for (`admission.queueTimeoutMs`), the
 * leaf loaded (`loadTimeoutMs`), the call (`probeTimeoutMs`), its reap (twice `limits.graceMs`)
 * — plus a margin. Past it the engine is unresponsive, whatever it says (call-ledger.ts).
 */
export function effectDeadlineMs(options: ResolvedHostOptions): number {
  const { admission, loadTimeoutMs, probeTimeoutMs, limits } = options;
  return admission.queueTimeoutMs + loadTimeoutMs + probeTimeoutMs + 2 * limits.graceMs + ENGINE_DEADLINE_MARGIN_MS;
}

/**
 * The service's own deadline for a run with `timeoutMs` (ms from the send): the engine's
 * thread tier settles it within its admission (as an effect call, above), `timeoutMs`, the grace
 * before and after its thread is terminated, and its reap (each `limits.graceMs`), plus a margin.
 * A run without `timeoutMs` has none: it may run as long as its leaf does, in either tier.
 */
export function runDeadlineMs(options: ResolvedHostOptions, timeoutMs: number | undefined): number | undefined {
  return timeoutMs === undefined ? undefined : effectDeadlineMs(options) + timeoutMs + 4 * options.limits.graceMs;
}

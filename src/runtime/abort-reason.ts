import { DEFAULT_LIMITS } from '../contracts/limits.js';
import { isSignalSpec, type SignalSpec } from './process-group.js';

/** Default grace between SIGHUP and SIGKILL when housekeeping does not name one: the host's `limits.graceMs`. */
export const DEFAULT_KILL_GRACE_MS = DEFAULT_LIMITS.graceMs;

/**
 * What a cancellation asks of a process group (§executor-cancellation):
 * `{ signal: 'SIGUSR1' | 15 }` delivers exactly that signal once; `{ housekeeping: true,
 * graceMs }` sends SIGHUP and SIGKILL after the grace; anything else (including
 * `{ signal: null }` and a plain abort) sends SIGHUP.
 */
export type CancelPlan =
  { kind: 'signal'; signal: SignalSpec } | { kind: 'housekeeping'; graceMs: number } | { kind: 'hangup' };

/** Reads an `AbortSignal.reason` as a {@link CancelPlan}. Never throws. */
export function planCancel(reason: unknown): CancelPlan {
  if (typeof reason !== 'object' || reason === null) return { kind: 'hangup' };
  const fields = reason as { signal?: unknown; housekeeping?: unknown; graceMs?: unknown };
  if (fields.housekeeping === true) {
    const grace = fields.graceMs;
    const graceMs = typeof grace === 'number' && Number.isFinite(grace) && grace >= 0 ? grace : DEFAULT_KILL_GRACE_MS;
    return { kind: 'housekeeping', graceMs };
  }
  if (isSignalSpec(fields.signal)) return { kind: 'signal', signal: fields.signal };
  return { kind: 'hangup' };
}

import { planCancel } from '../runtime/abort-reason.js';
import { liveGroupMembers, signalGroup } from '../runtime/process-group.js';

/**
 * Carries out the cancellation an abort reason asks for on process group `pgid`. The
 * housekeeping escalation runs on an unref'd timer: it must fire even after the leader has
 * exited (a member that ignores SIGHUP keeps the group alive) but must not hold the thread.
 */
export function cancelGroup(pgid: number, reason: unknown): void {
  const plan = planCancel(reason);
  if (plan.kind === 'signal') {
    signalGroup(pgid, plan.signal);
    return;
  }
  if (!signalGroup(pgid, 'SIGHUP') || plan.kind === 'hangup') return;
  setTimeout(() => {
    if (liveGroupMembers(pgid).length > 0) signalGroup(pgid, 'SIGKILL');
  }, plan.graceMs).unref();
}

import type { ThreadViolationKind } from '../contracts/violation.js';
import { banInternalBindings } from './binding-ban.js';
import { guardChildProcesses } from './child-process-guard.js';
import { keepPermissionFromChildren } from './child-permission.js';
import { createRefusal, type Report } from './guard-kit.js';
import { trackOwnProcesses, type OwnProcesses } from './own-processes.js';
import { guardProcessKnobs } from './process-knobs.js';
import { guardSignals } from './signal-guard.js';
import { banThreads } from './thread-ban.js';

/**
 * Installs every guard an executor or hook thread holds a leaf to, before any leaf code runs:
 * children start detached, marked and reported (child-process-guard) and outside Node's
 * permission model (child-permission), signals reach only the run's own processes
 * (signal-guard), no nested thread or BroadcastChannel (thread-ban), no
 * process-wide knob (process-knobs), and — last, since the others need a binding first — no
 * inspector session and no internal binding (binding-ban). A refusal throws a `forbidden`
 * PlurnkExecsError in the leaf and goes to `report` with its kind; a child's process group goes to
 * `reportGroup`. Returns the thread's own-process ledger: the task handler tells it when a
 * task begins and ends.
 */
export function installThreadGuards(options: {
  threadMarker: string;
  report: Report;
  reportGroup: (pgid: number) => void;
}): OwnProcesses {
  const refuse = (kind: ThreadViolationKind) => createRefusal(options.report, kind);
  const own = trackOwnProcesses(options.threadMarker);
  guardChildProcesses(own, options.reportGroup);
  keepPermissionFromChildren();
  guardSignals(own, refuse('forbidden-signal'));
  banThreads(refuse('thread-ban'));
  guardProcessKnobs(own, refuse('process-knob'));
  banInternalBindings(refuse('main-thread'));
  return own;
}

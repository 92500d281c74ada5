import { banInternalBindings } from './binding-ban.js';
import { createRefusal, type Report } from './guard-kit.js';
import { guardProcessKill } from './signal-guard.js';
import { banWorkerThreads } from './thread-ban.js';

/**
 * Installs every guard an executor or hook thread holds a leaf to, before any leaf code runs:
 * no nested thread (thread-ban), signals (signal-guard), and — last, since the others may need
 * a binding first — no inspector session and no internal binding (binding-ban). A refusal
 * throws a `forbidden` PlurnkExecsError in the leaf and goes to `report`.
 */
export function installThreadGuards(options: { report: Report }): void {
  const refuse = createRefusal(options.report);
  banWorkerThreads(options.report);
  guardProcessKill(options.report);
  banInternalBindings(refuse);
}

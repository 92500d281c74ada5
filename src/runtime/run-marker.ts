/**
 * The variable every process a task or thread starts carries in its environment: the worker's
 * child_process guard adds it to every child, and children inherit it, so the host finds a
 * run's processes by it wherever they went — another group, another session, reparented to
 * PID 1 — unless one clears it (docs/faults.md).
 */
export const RUN_MARKER = 'PLURNK_EXECS_RUN';

/**
 * A fresh, unguessable marker value for one task or one thread. Web Crypto's global (the same
 * CSPRNG as `node:crypto`) loads on first call: importing `node:crypto` would cost every
 * executor thread its start-up compile, though a thread is handed its marker by the host.
 */
export function newRunMarker(): string {
  return globalThis.crypto.randomUUID();
}

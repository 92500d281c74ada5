import * as v from 'valibot';
import { EffectSchema, type Effect } from '../../contracts/effect.js';
import { isLoadStage } from '../../contracts/protocol.js';
import { describeError } from '../../contracts/serialized-error.js';
import { openControlPort } from '../ports/control-port.js';
import { TimeoutError, withDeadline } from '../../runtime/deadline.js';
import { describeLeafValue } from '../../runtime/describe-leaf-value.js';
import { reapGroups } from '../threads/reaper.js';
import { newRunMarker } from '../../runtime/run-marker.js';
import type { WorkerHandle } from '../threads/worker-handle.js';

/** An effect fact, or why there is none; `poisoned` asks for the thread to be retired. */
export type EffectCall =
  | { ok: true; effect: Effect }
  | { ok: false; code: 'executor-threw' | 'executor-invalid-result'; detail: string; poisoned: boolean };

/**
 * Calls `effect(target)` once in `handle`'s thread (§executor-effect). It must be synchronous
 * and cheap, so it gets `timeoutMs` from the moment it starts; a thread that overruns (a
 * synchronous loop), dies, or is still busy when the host closes is retired by the caller.
 * `effect()` must not start processes; any group it reports is reaped all the same.
 */
export async function callEffect(
  handle: WorkerHandle,
  target: string | null,
  options: { timeoutMs: number; loadTimeoutMs: number; graceMs: number; closing: AbortSignal },
): Promise<EffectCall> {
  const { timeoutMs, closing } = options;
  const marker = newRunMarker();
  const control = openControlPort(marker);
  const since = Date.now();
  let poisoned = false;
  try {
    // On a thread whose leaf is loaded the call starts at once: no `started`, no load deadline.
    const loaded = handle.loaded;
    const task = handle.post({ kind: 'effect', target, control: control.workerPort, announce: !loaded, marker }, [
      control.workerPort,
    ]);
    if (!loaded)
      await withDeadline(
        Promise.race([control.started, task]),
        options.loadTimeoutMs,
        `the leaf did not load within loadTimeoutMs ${options.loadTimeoutMs}ms`,
        closing,
      );
    const reply = await withDeadline(task, timeoutMs, `effect() did not return within ${timeoutMs}ms`, closing);
    if (!reply.ok) {
      const what = isLoadStage(reply.stage) ? 'the leaf could not be loaded' : 'effect() threw';
      return { ok: false, code: 'executor-threw', detail: `${what}: ${describeError(reply.error)}`, poisoned: false };
    }
    const parsed = v.safeParse(EffectSchema, reply.value);
    if (parsed.success) return { ok: true, effect: parsed.output };
    return {
      ok: false,
      code: 'executor-invalid-result',
      detail: `effect() returned ${describeLeafValue(reply.value)}, not 'pure', 'read' or 'host'`,
      poisoned: false,
    };
  } catch (error) {
    const detail =
      error instanceof TimeoutError
        ? error.message
        : `the worker thread died during effect(): ${handle.deathReason ?? String(error)}`;
    poisoned = true;
    return { ok: false, code: 'executor-threw', detail, poisoned: true };
  } finally {
    control.close();
    const swept = control.groups.size > 0 || control.refusedGroups > 0 || poisoned ? marker : undefined;
    await reapGroups(control.groups, options.graceMs, swept, since);
  }
}

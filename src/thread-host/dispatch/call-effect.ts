import * as v from 'valibot';
import { EffectSchema, type Effect } from '../../contracts/effect.js';
import { leafFrames } from './leaf-stack.js';
import { describeLeafValue } from '../../runtime/describe-leaf-value.js';
import { borrowForCall, describeFailedReply, type CallOutcome, type ThreadCall } from '../threads/bounded-call.js';
import type { TagWorkers } from '../threads/tag-workers.js';

/** An effect fact, or why there is none; `poisoned` asks for the thread to be retired. */
export type EffectCall =
  | { ok: true; effect: Effect }
  | {
      ok: false;
      code: 'executor-threw' | 'executor-invalid-result';
      detail: string;
      poisoned: boolean;
      /** The leaf's own frames when `effect()` (or the leaf's import) threw. */
      stack?: string[];
    };

/** How long effect() may take and when the host gives up on it. */
export interface EffectOptions {
  readonly timeoutMs: number;
  readonly loadTimeoutMs: number;
  readonly graceMs: number;
  readonly closing: AbortSignal;
}

/** `host.effect()`: borrows a thread of `workers` for the one call and gives it back. */
export async function borrowEffect(
  workers: TagWorkers,
  target: string | null,
  options: EffectOptions,
): Promise<EffectCall> {
  return judgeEffect(await borrowForCall(workers, effectCall(target, options), false));
}

function effectCall(target: string | null, options: EffectOptions): ThreadCall {
  return {
    task: (id, marker, announce) => ({ kind: 'effect', target, id, announce, marker }),
    name: 'effect()',
    timeoutMs: options.timeoutMs,
    overrun: `effect() did not return within ${options.timeoutMs}ms`,
    loadTimeoutMs: options.loadTimeoutMs,
    graceMs: options.graceMs,
    closing: options.closing,
  };
}

function judgeEffect(call: CallOutcome): EffectCall {
  if (call.kind !== 'reply') return { ok: false, code: 'executor-threw', detail: call.detail, poisoned: true };
  const { reply } = call;
  if (!reply.ok) {
    const stack = leafFrames(reply.error.stack);
    const detail = describeFailedReply(reply, 'effect()', 'returned');
    return { ok: false, code: 'executor-threw', detail, poisoned: false, ...(stack.length > 0 ? { stack } : {}) };
  }
  const parsed = v.safeParse(EffectSchema, reply.value);
  if (parsed.success) return { ok: true, effect: parsed.output };
  return {
    ok: false,
    code: 'executor-invalid-result',
    detail: `effect() returned ${describeLeafValue(reply.value)}, not 'pure', 'read' or 'host'`,
    poisoned: false,
  };
}

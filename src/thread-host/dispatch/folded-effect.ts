import type { Effect } from '../../contracts/effect.js';
import type { TaskReply } from '../../contracts/protocol.js';
import { describeLeafValue } from '../../runtime/describe-leaf-value.js';
import { describeFailedReply } from '../threads/bounded-call.js';
import type { WorkerHandle } from '../threads/worker-handle.js';
import type { EffectCall } from './call-effect.js';
import type { Settled } from './judge-run.js';
import { leafFrames } from './leaf-stack.js';

// A run's effect() folded into its run task (WorkerTask 'run' `effect`), where the caller passed
// no effect: one round trip per EXEC instead of two, which on a warm thread was most of a no-op
// EXEC's cost. effect() keeps the bound and the verdicts it has as a call of its own
// (call-effect.ts): from the moment it starts it gets `timeoutMs`, and the thread's mark
// (TaskChannel.effectReturned) tells the host, when that runs out, whether effect() returned and
// run() goes on under the run's bounds, or effect() still spins and the thread must go. A
// failure before run() refuses the EXEC exactly as the separate call did.

/** The host's bound on a folded effect() alone. */
export interface FoldedEffectWatch {
  /** Resolves if effect() has not returned `timeoutMs` after it started: the thread must be terminated. */
  readonly overran: Promise<void>;
  /** Starts the bound: at the post on a thread whose leaf is loaded, at `started` otherwise. */
  start(): void;
  dispose(): void;
}

/** Bounds the effect() of run task `task` in `handle`'s thread to `timeoutMs` from its start. */
export function watchFoldedEffect(handle: WorkerHandle, task: number, timeoutMs: number): FoldedEffectWatch {
  let timer: NodeJS.Timeout | undefined;
  let overrun!: () => void;
  const overran = new Promise<void>((resolve) => (overrun = resolve));
  return {
    overran,
    start() {
      timer ??= setTimeout(() => {
        if (handle.effectReturned(task) === undefined) overrun();
      }, timeoutMs);
    },
    dispose() {
      clearTimeout(timer);
    },
  };
}

/** What judging a folded effect() reads besides how its run task settled. */
export interface FoldedEffectFacts {
  /** The Effect the thread marked for the task, if it did. */
  readonly returned: Effect | undefined;
  /** True when the host ended the task for effect()'s own bound. */
  readonly overran: boolean;
  readonly timeoutMs: number;
  /** True when the thread acknowledged the task (`started`), or did not need to: its leaf was loaded. */
  readonly acknowledged: boolean;
  /** Set when the run's guard ended the task because the thread stopped answering (or never acknowledged it). */
  readonly unresponsive: boolean;
  readonly loadTimeoutMs: number;
  readonly deathReason: string | undefined;
}

/**
 * How a folded effect() ended once its run task settled: it returned an Effect (run() went on,
 * and the run's own judgement applies), the host closing or a fault ended the task first
 * (judged as the run; the effect unknown), or it failed, which refuses the EXEC before run() as
 * `host.effect()` judges its call — a leaf that never loaded included, and an effect() still
 * running when the run's abort or deadline ended its thread.
 */
export function judgeFoldedEffect(settled: Settled, facts: FoldedEffectFacts): FoldedEffectEnd {
  if (facts.returned !== undefined) return { refused: false, effect: facts.returned };
  if (facts.overran) return refuse(`effect() did not return within ${facts.timeoutMs}ms`);
  switch (settled.kind) {
    case 'forced':
      // Never acknowledged: the leaf did not load, and effect() was never called.
      if (!facts.acknowledged && facts.unresponsive)
        return refuse(`the leaf did not load within loadTimeoutMs ${facts.loadTimeoutMs}ms`);
      // Acknowledged and unmarked: effect() still held the thread when the run's abort or deadline
      // ended it, grace included. run() never ran: effect()'s fault, as the separate call judged it.
      if (facts.acknowledged && (settled.end === 'cancelled' || settled.end === 'timeout'))
        return refuse(
          `effect() had not returned when the run was ${settled.end === 'cancelled' ? 'aborted' : 'timed out'}, nor within graceMs after`,
        );
      return { refused: false, effect: null };
    case 'died':
      return refuse(`the worker thread died during effect(): ${facts.deathReason ?? String(settled.error)}`);
    case 'reply':
      // A reply that is no failure, with no mark: the leaf forged it; its run never ran.
      if (settled.reply.ok) return refuse('effect() was not called: the thread answered without it');
      return { refused: true, failure: failedBefore(settled.reply) };
  }
}

/** How a folded effect() ended: run() went on (with the Effect, when known), or the EXEC is refused. */
export type FoldedEffectEnd =
  | { readonly refused: false; readonly effect: Effect | null }
  | { readonly refused: true; readonly failure: Extract<EffectCall, { ok: false }> };

/** A refusal whose thread is retired: it overran, never loaded, died, or broke the protocol. */
function refuse(detail: string): FoldedEffectEnd {
  return { refused: true, failure: { ok: false, code: 'executor-threw', detail, poisoned: true } };
}

/** A failed reply to a run task whose effect() never returned an Effect: it threw, returned no Effect, or the leaf did not load. */
function failedBefore(reply: Extract<TaskReply, { ok: false }>): Extract<EffectCall, { ok: false }> {
  if (reply.stage === 'effect' && Object.hasOwn(reply, 'effect'))
    return {
      ok: false,
      code: 'executor-invalid-result',
      detail: `effect() returned ${describeLeafValue(reply.effect)}, not 'pure', 'read' or 'host'`,
      poisoned: false,
    };
  const stack = leafFrames(reply.error.stack);
  // The thread's own wording for a throw in effect() is that of a throw in a call.
  const named = reply.stage === 'effect' ? { ...reply, stage: 'call' as const } : reply;
  const detail = describeFailedReply(named, 'effect()', 'returned');
  return { ok: false, code: 'executor-threw', detail, poisoned: false, ...(stack.length > 0 ? { stack } : {}) };
}

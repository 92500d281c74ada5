import type { Effect } from '../../contracts/effect.js';
import { serializeError } from '../../contracts/serialized-error.js';
import type { ParsedExecRequest } from '../../model/exec-request.js';
import type { ExecOutcome } from '../../model/host-types.js';
import type { HostStats, TierStats } from '../../model/observe/host-stats.js';
import type { EffectTrace, ExecTrace, TracedError } from '../../model/observe/observe-events.js';
import {
  EFFECT_TRACING,
  EXEC_TRACING,
  eventText,
  isObserved,
  isTraced,
  publishEvent,
} from '../../model/observe/publish-event.js';
import type { RunTrace } from '../../model/tier.js';
import { RunBook } from './run-book.js';
import { traceAsync } from './trace-async.js';

/**
 * What the front door sees of every EXEC and effect call, in either tier: each EXEC counted
 * (run-book.ts) and, when someone subscribed, traced on `plurnk-execs:exec` and its violations
 * published on `plurnk-execs:violation`; each effect call traced on `plurnk-execs:effect`.
 * With no subscriber an EXEC costs a counter, two histogram records and one `then`.
 */
export class HostObserver {
  private readonly book: RunBook;

  constructor(registered: Iterable<string>) {
    this.book = new RunBook(registered);
  }

  /** Runs `run` as one observed EXEC of `request.runtime` (resolved). */
  exec(request: ParsedExecRequest, run: (trace: RunTrace) => Promise<ExecOutcome>): Promise<ExecOutcome> {
    const tag = request.runtime;
    const trace: RunTrace = {};
    const started = performance.now();
    this.book.started(tag);
    const settle = (outcome: ExecOutcome): number => {
      const durationMs = performance.now() - started;
      this.book.settled(tag, outcome, durationMs, trace.queueMs);
      if (outcome.violations.length > 0 && isObserved('plurnk-execs:violation')) publishViolations(tag, outcome);
      return durationMs;
    };
    if (!isTraced(EXEC_TRACING))
      return run(trace).then(
        (outcome) => (settle(outcome), outcome),
        (error: unknown) => {
          this.book.rejected(tag);
          throw error;
        },
      );
    const context: ExecTrace = { runtime: tag, address: requestAddress(request) };
    return traceAsync(
      EXEC_TRACING,
      context,
      () => run(trace),
      (outcome) => {
        const durationMs = settle(outcome);
        context.result = {
          outcome: outcome.outcome,
          status: outcome.result.status,
          durationMs,
          queueMs: trace.queueMs ?? null,
        };
      },
      (error) => {
        this.book.rejected(tag);
        context.error = tracedError(error);
      },
    );
  }

  /** Runs `call` as one observed `host.effect(tag, target)`. */
  effect(tag: string, target: string | null, call: () => Promise<Effect>): Promise<Effect> {
    if (!isTraced(EFFECT_TRACING)) return call();
    const context: EffectTrace = { runtime: tag, target: target === null ? null : eventText(target) };
    const started = performance.now();
    return traceAsync(
      EFFECT_TRACING,
      context,
      call,
      (effect) => (context.result = { effect, durationMs: performance.now() - started }),
      (error) => (context.error = tracedError(error)),
    );
  }

  /** `host.stats()`: the front door's counts joined with the tier's. */
  stats(tier: HostStats['tier'], tierStats: TierStats): HostStats {
    return this.book.snapshot(tier, tierStats);
  }
}

/** The address a request names, as the outcome will say it. */
function requestAddress(request: ParsedExecRequest): string | null {
  const at = request.address;
  return at === undefined ? null : `${request.runtime}:///${at.loop}/${at.turn}/${at.sequence}`;
}

/** An error as a trace carries it: name, code, and the message cut to the event budget. */
function tracedError(error: unknown): TracedError {
  const { name, message, code } = serializeError(error);
  return code === undefined ? { name, message: eventText(message) } : { name, message: eventText(message), code };
}

function publishViolations(tag: string, outcome: ExecOutcome): void {
  for (const { kind, detail } of outcome.violations)
    publishEvent('plurnk-execs:violation', () => ({
      tag,
      kind,
      address: outcome.address,
      detail: eventText(detail),
    }));
}

import * as v from 'valibot';
import { ClientInteractionRequestSchema } from '../contracts/notice.js';
import { encodeAbortReason } from '../contracts/protocol.js';
import type { Violation } from '../contracts/violation.js';
import { describeThrow } from '../runtime/guard-listener.js';
import { onAbort as subscribeAbort } from '../runtime/abort-fanout.js';
import type { ParsedExecRequest } from '../model/exec-request.js';
import type { EngineDeathCause } from '../model/fault-kinds.js';
import { hostFailure } from '../model/host-problems.js';
import type { ExecOutcome } from '../model/host-types.js';
import { SeenRun } from './crashed-run.js';
import type { CgroupRefusals } from './sandbox/engine-cgroup.js';
import type { EngineMessage, SinkCall } from './engine-protocol.js';
import type { EngineEnd, EngineProcess } from './engine-process.js';
import { rebuildWireError } from './wire-error.js';
import { restoreForwardedText } from './forwarded-text.js';

type SinkRequest = Extract<EngineMessage, { t: 'sink-request' }>;
type OutcomeMessage = Extract<EngineMessage, { t: 'outcome' }>;

/** What bounds one relayed run: its Problem details, the bytes of sink calls its engine may forward, and the service's own deadline. */
export interface RelayBounds {
  readonly detailLimit: number;
  readonly maxBytes: number;
  /** How long after it was sent the run must be answered, whatever the engine says (engine-limits.ts); undefined for a run without `timeoutMs`. */
  readonly deadlineMs: number | undefined;
}

/**
 * How old the cgroup's last reading may be for a run to start from it (engine-cgroup.ts): a run
 * begun within this of another run's start or end takes that reading as its own opening one.
 */
const OPENING_READING_MAX_AGE_MS = 1;

const EntryArgsSchema = v.tuple([
  v.string(),
  v.nullable(v.string()),
  v.strictObject({ tags: v.array(v.string()), mimetype: v.optional(v.string()) }),
]);

/**
 * One run as the service relays it: sends it to the engine, carries the caller's abort across,
 * hands every forwarded sink call to the service's sinks at once (so nothing written is lost if
 * the engine dies), answers `interact` and `entry` from them, and settles exactly once — with
 * the engine's outcome, or with what was seen when the engine died or the host closed. Its
 * engine's lane (engine-lane.ts) checks that every frame concerns this run while it is in
 * flight there before handing it over.
 */
export class RunRelay {
  readonly settled: Promise<ExecOutcome>;
  private resolve!: (outcome: ExecOutcome) => void;
  private reject!: (error: Error) => void;
  private done = false;
  private readonly seen = new SeenRun();
  private readonly violations: Violation[] = [];
  private unsubscribe: (() => void) | undefined;
  /** What the engine's cgroup had refused when the run began (undefined without a cgroup). */
  private refusedBefore: CgroupRefusals | undefined;
  private readonly onAbort = () =>
    this.engine.send({ t: 'abort', id: this.id, reason: encodeAbortReason(this.request.signal?.reason) });

  constructor(
    readonly id: number,
    readonly tag: string,
    private readonly request: ParsedExecRequest,
    private readonly engine: EngineProcess,
    private readonly bounds: RelayBounds,
  ) {
    this.settled = new Promise((resolve, reject) => {
      this.resolve = resolve;
      this.reject = reject;
    });
  }

  /** Sends the run to the engine; one that is already gone settles it 500 engine-crashed at once. */
  begin(): void {
    const { request } = this;
    this.refusedBefore = this.engine.command.sandbox?.refusals(OPENING_READING_MAX_AGE_MS);
    // A signal already aborted crosses with the run, not a frame after it: the leaf must see it
    // aborted from its first line, as in the thread tier, or it may start what it would not.
    const aborted = request.signal?.aborted === true ? encodeAbortReason(request.signal.reason) : undefined;
    // An engine can die between handing itself out and this send (a corrupt frame right after
    // its `booted` one): its death was reported before this run was in flight, so settle here.
    const frame = {
      t: 'exec' as const,
      id: this.id,
      ...(aborted === undefined ? {} : { aborted }),
      request: {
        runtime: this.tag,
        body: request.body,
        target: request.target,
        cwd: request.cwd,
        ...(request.env === undefined ? {} : { env: request.env }),
        ...(request.timeoutMs === undefined ? {} : { timeoutMs: request.timeoutMs }),
        ...(request.address === undefined ? {} : { address: request.address }),
        ...(request.effect === undefined ? {} : { effect: request.effect }),
        interact: request.sinks?.interact !== undefined,
        entry: request.sinks?.entry !== undefined,
      },
    };
    const sent = this.engine.sendCall(frame, `run ${this.id} (${this.tag})`, this.bounds.deadlineMs);
    if (!sent) return this.settleCrashed('the engine was gone before the run reached it');
    // One listener on the caller's signal however many runs share it (abort-fanout.ts).
    if (aborted === undefined && request.signal !== undefined)
      this.unsubscribe = subscribeAbort(request.signal, this.onAbort);
  }

  /** Whether `bytes` more of forwarded sink calls stay within the run's budget (checked for a whole batch before any of it applies). */
  fits(bytes: number): boolean {
    return this.seen.bytes + bytes <= this.bounds.maxBytes;
  }

  /** One forwarded write, setState or emit, in the leaf's order: seen (and budgeted), then handed to the service's sink. */
  sink(call: SinkCall): void {
    if (this.done) return;
    this.seen.apply(call);
    if (this.seen.bytes > this.bounds.maxBytes)
      return this.engine.fail(`more than ${this.bounds.maxBytes} bytes of sink calls for one run`);
    if (call[0] === 'writes') {
      // Each chunk is the write the leaf made.
      const sinks = this.request.sinks;
      if (sinks?.write !== undefined)
        for (const chunk of call[2]) this.callSink('write', () => sinks.write!(call[1], chunk));
      return;
    }
    const [name, ...args] = call;
    this.callSink(name, () => (this.request.sinks?.[name] as ((...a: unknown[]) => void) | undefined)?.(...args));
  }

  /** An `interact` or `entry` the leaf asked for: answered from the service's own sink. */
  ask(message: SinkRequest): void {
    if (!this.done) void this.answer(message);
  }

  /**
   * The engine's outcome with its channels' text put back from what was forwarded
   * (forwarded-text.ts), or undefined when the two disagree: checked before the frame is applied.
   */
  restore(message: OutcomeMessage): ExecOutcome | undefined {
    return restoreForwardedText(message.outcome as ExecOutcome, message.lengths, this.seen);
  }

  /** Settles with the engine's (restored) outcome, plus the violations recorded here. */
  settle(outcome: ExecOutcome): void {
    this.finish(
      this.violations.length === 0 ? outcome : { ...outcome, violations: [...outcome.violations, ...this.violations] },
    );
  }

  /** The engine's thread host rejected the run (a closed host): `exec` rejects as in the thread tier. */
  refused(error: Extract<EngineMessage, { t: 'exec-error' }>['error']): void {
    if (this.done) return;
    this.finish(undefined);
    this.reject(rebuildWireError(error, 'host-closed'));
  }

  /** The engine died (or was killed as unresponsive) under the run: 500 `end` with the output seen so far. */
  settleCrashed(why: string, end: EngineEnd = 'engine-crashed', cause?: EngineDeathCause): void {
    this.finish(
      this.seen.crashed(why, this.bounds.detailLimit, this.request.effect ?? null, this.address(), end, cause),
    );
  }

  /** The host closed and the engine with it before the run's outcome came back: 499, as the thread tier answers. */
  settleClosed(): void {
    const outcome = this.seen.crashed(
      'the host closed',
      this.bounds.detailLimit,
      this.request.effect ?? null,
      this.address(),
    );
    outcome.result = hostFailure('execution-cancelled', 'the host closed while the run was in flight');
    outcome.outcome = 'cancelled';
    outcome.containment = { console: null, reapedProcesses: 0, forcedEnd: { reason: 'host-closed', terminated: true } };
    this.finish(outcome);
  }

  private finish(outcome: ExecOutcome | undefined): void {
    if (this.done) return;
    this.done = true;
    this.unsubscribe?.();
    if (outcome !== undefined) this.resolve(this.withRefusals(outcome));
  }

  /** The outcome with what the engine's cgroup refused while the run was in flight (`containment.sandbox`). */
  private withRefusals(outcome: ExecOutcome): ExecOutcome {
    const before = this.refusedBefore;
    const after = before === undefined ? undefined : this.engine.command.sandbox?.refusals();
    if (before === undefined || after === undefined || outcome.containment === undefined) return outcome;
    const sandbox = {
      forksRefused: Math.max(0, after.forksRefused - before.forksRefused),
      oomKills: Math.max(0, after.oomKills - before.oomKills),
    };
    return { ...outcome, containment: { ...outcome.containment, sandbox } };
  }

  private async answer(message: SinkRequest): Promise<void> {
    const sinks = this.request.sinks;
    const reply = (ok: boolean, value: unknown, error?: string) =>
      this.engine.send({ t: 'sink-reply', id: this.id, call: message.call, ok, value, ...(error ? { error } : {}) });
    try {
      if (message.name === 'interact') {
        // The engine's thread host validated the request; one that fails here was forged.
        const parsed = v.safeParse(ClientInteractionRequestSchema, message.args[0]);
        if (!parsed.success || sinks?.interact === undefined)
          return this.engine.fail('an interact request that is none');
        reply(true, await sinks.interact(parsed.output));
      } else {
        const parsed = v.safeParse(EntryArgsSchema, message.args);
        if (!parsed.success || sinks?.entry === undefined) return this.engine.fail('an entry request that is none');
        const [path, content, opts] = parsed.output;
        reply(true, await sinks.entry(path, content, opts));
      }
    } catch (error) {
      reply(false, undefined, describeThrow(error));
    }
  }

  /** Calls one of the service's own sinks; a throw is recorded as `embedding-sink`, never fatal. */
  private callSink(name: string, call: () => void): void {
    try {
      call();
    } catch (error) {
      if (this.violations.length < 100)
        this.violations.push({
          kind: 'embedding-sink',
          detail: `the embedding service's ${name} sink threw: ${describeThrow(error)}`,
        });
    }
  }

  private address(): string | null {
    const at = this.request.address;
    return at === undefined ? null : `${this.tag}:///${at.loop}/${at.turn}/${at.sequence}`;
  }
}

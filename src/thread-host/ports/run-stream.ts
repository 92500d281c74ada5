import * as v from 'valibot';
import {
  ChannelStateSchema,
  isLegalTransition,
  type ChannelDecl,
  type ChannelState,
} from '../../contracts/channels.js';
import type { Limits } from '../../contracts/limits.js';
import { measureNotice, NoticeSchema, type Notice } from '../../contracts/notice.js';
import { createOutputBudget, type OutputBudget } from '../../contracts/output-budget.js';
import { describeIssue } from '../../contracts/result.js';
import type { Violation, ViolationKind } from '../../contracts/violation.js';
import { ChunkedText } from '../../runtime/chunked-text.js';
import { clipText, describeLeafValue } from '../../runtime/describe-leaf-value.js';
import { describeThrow } from '../../runtime/guard-listener.js';
import type { ChannelOutput, EmbeddingSinks } from '../../model/host-types.js';

/** How many violations a run keeps verbatim; the rest are counted. */
const MAX_VIOLATIONS = 100;
/** Characters one violation text keeps: it may quote leaf text (a channel name of a megabyte). */
export const VIOLATION_CHARS = 1024;
/** The longest per-write mimetype accepted: RFC 6838 caps type and subtype at 127 characters each. */
export const MIMETYPE_CHARS = 255;

/** The limits a stream holds on its own: what it may keep besides channel text (bytes; docs/faults.md). */
type StreamLimits = Pick<Limits, 'noticeBytes' | 'violationBytes'>;

const UNBOUNDED: StreamLimits = { noticeBytes: Infinity, violationBytes: Infinity };

/**
 * The stream of one run, seeded from the executor's declared channels (state `defaultState`
 * or `active`). Applies the leaf's sink calls in arrival order, refuses what the contract
 * forbids (undeclared channels, illegal transitions, malformed arguments) as violations, and
 * forwards what it accepts to the embedding service's sinks. Sealed once the run settled. Until
 * then a channel's `text` (and its last part's) is read from the chunks kept so far
 * (chunked-text.ts: a `+=` per write cost the main thread its garbage collections); the seal
 * makes it a plain string.
 */
export class RunStream {
  readonly channels: Record<string, ChannelOutput> = {};
  readonly notices: Notice[] = [];
  readonly violations: Violation[] = [];
  private dropped = 0;
  private violationBytes = 0;
  private noticeBytes = 0;
  private noticesDropped = 0;
  private sealed = false;
  private budget: OutputBudget | undefined;
  private onOverflow: (() => void) | undefined;
  /** Each channel's last part as the chunks written to it, until the seal joins them. */
  private readonly tails = new Map<ChannelOutput, ChunkedText>();

  constructor(
    decls: Readonly<Record<string, ChannelDecl>>,
    private readonly sinks: EmbeddingSinks = {},
    /** The host's limits (passed whole); the output cap comes from the run's guard ({@link capOutput}). */
    private readonly limits: StreamLimits = UNBOUNDED,
  ) {
    for (const [name, decl] of Object.entries(decls)) {
      this.channels[name] = { mimetype: decl.mimetype, state: decl.defaultState ?? 'active', text: '', parts: [] };
    }
  }

  /**
   * Holds the run's accepted output to `limitBytes` UTF-8 bytes across its channels (the host's
   * own copy of the worker's cap): the write that crosses it keeps its longest whole-character
   * prefix, later writes are dropped, and `onOverflow` is called once.
   */
  capOutput(limitBytes: number, onOverflow: () => void): void {
    this.budget = createOutputBudget(limitBytes);
    this.onOverflow = onOverflow;
  }

  /** Appends `chunk` to a declared, active channel. */
  write(channel: unknown, chunk: unknown, mimetype?: unknown): void {
    const output = this.accepting('write', channel);
    if (!output) return;
    if (typeof chunk !== 'string')
      return this.violate(
        'invalid-write',
        `write to ${channel as string}: chunk must be a string, received ${typeof chunk}`,
      );
    if (mimetype !== undefined && (typeof mimetype !== 'string' || mimetype === '')) {
      return this.violate(
        'invalid-write',
        `write to ${channel as string}: mimetype must be a non-empty string, received ${describeLeafValue(mimetype)}`,
      );
    }
    if (typeof mimetype === 'string' && mimetype.length > MIMETYPE_CHARS)
      return this.violate(
        'invalid-write',
        `write to ${channel as string}: mimetype is ${mimetype.length} characters, over ${MIMETYPE_CHARS}; the write was refused`,
      );
    const type = mimetype ?? output.parts.at(-1)?.mimetype ?? output.mimetype;
    const last = output.parts.at(-1);
    // A part a per-write mimetype starts costs that mimetype too: alternating mimetypes cannot hold more than the cap.
    if (mimetype !== undefined && !(last && last.mimetype === type) && this.withinBudget(type) !== type) return;
    const text = this.withinBudget(chunk);
    if (text === '' && chunk !== '') return;
    let tail = this.tails.get(output);
    if (!(last && last.mimetype === type && tail !== undefined)) {
      if (last && tail !== undefined) settleText(last, tail.toString());
      const part = { mimetype: type, text: '' };
      output.parts.push(part);
      this.tails.set(output, (tail = new ChunkedText()));
      readsLive(part, tail);
      readsLive(output, { toString: () => output.parts.map((each) => each.text).join('') });
    }
    tail.append(text);
    output.mimetype = type;
    if (this.sinks.write !== undefined)
      this.forward('write', () => this.sinks.write?.(channel as string, text, mimetype as string | undefined));
  }

  /** Moves a declared channel from `active` to `closed` or `errored`. */
  setState(channel: unknown, state: unknown): void {
    const output = this.accepting('setState', channel, true);
    if (!output) return;
    const parsed = v.safeParse(ChannelStateSchema, state);
    if (!parsed.success)
      return this.violate(
        'invalid-state',
        `setState on ${channel as string}: ${describeLeafValue(state)} is not a channel state`,
      );
    if (!isLegalTransition(output.state, parsed.output)) {
      return this.violate(
        'illegal-transition',
        `setState on ${channel as string}: ${output.state} ⇒ ${parsed.output} is not allowed (only active ⇒ closed or errored)`,
      );
    }
    this.applyState(channel as string, output, parsed.output);
  }

  /** Records a transient notice. */
  emit(notice: unknown): void {
    if (this.sealed) return this.violate('after-settle', 'emit after run() settled');
    const parsed = v.safeParse(NoticeSchema, notice);
    if (!parsed.success)
      return this.violate('invalid-notice', `emit: invalid notice (${parsed.issues.map(describeIssue).join('; ')})`);
    const bytes = measureNotice(parsed.output);
    if (this.noticeBytes + bytes > this.limits.noticeBytes) {
      if (this.noticesDropped++ === 0)
        this.violate(
          'notice-limit',
          `emit: notices past limits.noticeBytes ${this.limits.noticeBytes} are dropped (the first was ${bytes} bytes)`,
        );
      return;
    }
    this.noticeBytes += bytes;
    this.notices.push(parsed.output);
    this.forward('emit', () => this.sinks.emit?.(parsed.output));
  }

  /** From now on every sink call is a violation: the run has settled. Writes each channel's text. */
  seal(): void {
    this.sealed = true;
    for (const [output, tail] of this.tails) {
      settleText(output.parts.at(-1)!, tail.toString());
      const { parts } = output;
      settleText(output, parts.length === 1 ? parts[0]!.text : parts.map((part) => part.text).join(''));
    }
    this.tails.clear();
  }

  /** Closes every channel still active: `closed` below status 400, `errored` otherwise. */
  finish(status: number): void {
    const terminal: ChannelState = status < 400 ? 'closed' : 'errored';
    for (const [name, output] of Object.entries(this.channels)) {
      if (output.state === 'active') this.applyState(name, output, terminal);
    }
  }

  /**
   * Records a violation the host found elsewhere (an invalid interaction, say). Each text is
   * cut to {@link VIOLATION_CHARS}; past {@link MAX_VIOLATIONS} violations or
   * `violationBytes` of text, the last entry counts the rest.
   */
  violate(kind: ViolationKind, message: string): void {
    const detail = clipText(message, VIOLATION_CHARS);
    if (this.dropped > 0) {
      this.violations[this.violations.length - 1] = truncated(++this.dropped);
      return;
    }
    if (this.violations.length < MAX_VIOLATIONS && this.violationBytes + detail.length <= this.limits.violationBytes) {
      this.violations.push({ kind, detail });
      this.violationBytes += detail.length;
      return;
    }
    // The list is full: its last entry becomes the count of everything not kept.
    if (this.violations.length >= MAX_VIOLATIONS) this.dropped = this.violations.pop() === undefined ? 0 : 1;
    this.violations.push(truncated(++this.dropped));
  }

  /** What of `chunk` the output cap lets through ('' once it is spent). */
  private withinBudget(chunk: string): string {
    if (this.budget === undefined) return chunk;
    const over = this.budget.exceeded;
    const kept = this.budget.take(chunk);
    if (!over && this.budget.exceeded) this.onOverflow?.();
    return kept;
  }

  private accepting(sink: string, channel: unknown, stateChange = false): ChannelOutput | undefined {
    if (this.sealed) return void this.violate('after-settle', `${sink} after run() settled`);
    if (typeof channel !== 'string' || !Object.hasOwn(this.channels, channel)) {
      return void this.violate(
        'undeclared-channel',
        `${sink} to undeclared channel ${describeLeafValue(channel)} (declared: ${Object.keys(this.channels).join(', ')})`,
      );
    }
    const output = this.channels[channel]!;
    if (!stateChange && output.state !== 'active')
      return void this.violate('inactive-channel', `write to ${channel} after it became ${output.state}`);
    return output;
  }

  private applyState(channel: string, output: ChannelOutput, state: ChannelState): void {
    output.state = state;
    this.forward('setState', () => this.sinks.setState?.(channel, state));
  }

  /**
   * An embedding sink that throws or rejects must not break the run; its failure is recorded.
   * An async sink's rejection would otherwise reach the host process's last-resort handler.
   */
  private forward(sink: string, call: () => unknown): void {
    try {
      const returned = call();
      if (isThenable(returned))
        returned.then(undefined, (error: unknown) =>
          this.violate('embedding-sink', embeddingSinkFailure(sink, 'rejected', error)),
        );
    } catch (error) {
      this.violate('embedding-sink', embeddingSinkFailure(sink, 'threw', error));
    }
  }
}

/** Makes `holder.text` read `source` until the seal settles it (a reader mid-run sees what arrived so far). */
function readsLive(holder: { text: string }, source: { toString(): string }): void {
  Object.defineProperty(holder, 'text', { get: () => source.toString(), enumerable: true, configurable: true });
}

/** Makes `holder.text` a plain value again: an outcome is plain data. */
function settleText(holder: { text: string }, text: string): void {
  Object.defineProperty(holder, 'text', { value: text, writable: true, enumerable: true, configurable: true });
}

/** The violation text for an embedding service's sink that threw or rejected. */
export function embeddingSinkFailure(sink: string, how: 'threw' | 'rejected', error: unknown): string {
  return `the embedding service's ${sink} sink ${how}: ${error instanceof Error ? error.message : describeThrow(error)}`;
}

function isThenable(value: unknown): value is PromiseLike<unknown> {
  return (
    (typeof value === 'object' || typeof value === 'function') &&
    value !== null &&
    typeof (value as { then?: unknown }).then === 'function'
  );
}

/** The entry that stands for the `count` violations past the kept ones. */
function truncated(count: number): Violation {
  return { kind: 'truncated', detail: `… and ${count} more violations` };
}

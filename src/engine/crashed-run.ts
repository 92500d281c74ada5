import type { ChannelState } from '../contracts/channels.js';
import type { Effect } from '../contracts/effect.js';
import { ErrorDetail } from '../contracts/error-detail.js';
import type { Notice } from '../contracts/notice.js';
import type { EngineDeathCause } from '../model/fault-kinds.js';
import { hostFailure } from '../model/host-problems.js';
import type { ChannelOutput, ExecOutcome } from '../model/host-types.js';
import { ChunkedText } from '../runtime/chunked-text.js';
import type { EngineEnd } from './engine-process.js';
import type { SinkCall } from './engine-protocol.js';

/** What one forwarded sink call counts against its run's budget of forwarded bytes. */
export function sinkCallBytes(call: SinkCall): number {
  if (call[0] === 'write') return call[2].length + (call[3]?.length ?? 0);
  if (call[0] === 'setState') return call[1].length;
  if (call[0] === 'writes') return call[2].reduce((sum, chunk) => sum + chunk.length, 0);
  return JSON.stringify(call[1]).length;
}

/** One channel as the service saw it forwarded: its text kept in chunks (chunked-text.ts) until it is read. */
interface SeenChannel {
  mimetype: string;
  state: ChannelState;
  readonly parts: { readonly mimetype: string; readonly text: ChunkedText }[];
}

/**
 * What the service saw of one run while it was in the engine: every accepted write, state
 * change and notice, forwarded as it happened. If the engine dies, this is the output the run
 * keeps. Also counts the bytes the engine forwarded, so an engine that floods is caught. The
 * text is kept in chunks, not a `+=` per write, whose rope nodes cost the service's main thread
 * its garbage collections under a flood of small writes.
 */
export class SeenRun {
  readonly notices: Notice[] = [];
  bytes = 0;
  private readonly seen = new Map<string, SeenChannel>();

  apply(call: SinkCall): void {
    if (call[0] === 'write') this.write(call[1], call[2], call[3]);
    else if (call[0] === 'writes') for (const chunk of call[2]) this.write(call[1], chunk);
    else if (call[0] === 'setState') {
      this.bytes += sinkCallBytes(call);
      const [, name, state] = call;
      const channel = this.seen.get(name);
      if (channel === undefined) this.seen.set(name, { mimetype: 'text/plain', state, parts: [] });
      else channel.state = state;
    } else {
      this.bytes += sinkCallBytes(call);
      this.notices.push(call[1]);
    }
  }

  /** One forwarded write. */
  write(name: string, chunk: string, mimetype?: string): void {
    this.bytes += chunk.length + (mimetype?.length ?? 0);
    let channel = this.seen.get(name);
    if (channel === undefined)
      this.seen.set(name, (channel = { mimetype: mimetype ?? 'text/plain', state: 'active', parts: [] }));
    const partType = mimetype ?? channel.parts.at(-1)?.mimetype ?? channel.mimetype;
    if (mimetype !== undefined) channel.mimetype = mimetype;
    let last = channel.parts.at(-1);
    if (last?.mimetype !== partType) channel.parts.push((last = { mimetype: partType, text: new ChunkedText() }));
    last.text.append(chunk);
  }

  /** Every channel as far as it was forwarded, as an outcome's plain channels. */
  get channels(): Record<string, ChannelOutput> {
    const channels: Record<string, ChannelOutput> = {};
    for (const [name, { mimetype, state, parts }] of this.seen) {
      const texts = parts.map((part) => ({ mimetype: part.mimetype, text: part.text.toString() }));
      channels[name] = { mimetype, state, text: texts.map((part) => part.text).join(''), parts: texts };
    }
    return channels;
  }

  /**
   * The outcome of a run whose engine died: 500 `engine-crashed` (or `engine-unresponsive`,
   * when the service killed an engine that stopped answering) naming why, with every channel
   * as far as it was written (those left active are `errored`) and the notices so far, and the
   * cause of the engine's death where the host could tell (`engine-out-of-memory`).
   */
  crashed(
    why: string,
    detailLimit: number,
    effect: Effect | null,
    address: string | null,
    end: EngineEnd = 'engine-crashed',
    cause?: EngineDeathCause,
  ): ExecOutcome {
    const what = end === 'engine-crashed' ? 'died' : 'was killed';
    const detail = ErrorDetail.preview(`the engine process ${what} during the run: ${why}`, detailLimit);
    const channels = this.channels;
    for (const channel of Object.values(channels))
      if (channel.state === 'active') channel.state = 'errored' as ChannelState;
    return {
      outcome: 'leaf-fault',
      result: hostFailure(end, detail),
      effect,
      address,
      channels,
      notices: this.notices,
      violations: [],
      containment: {
        console: null,
        reapedProcesses: 0,
        forcedEnd: cause === undefined ? { reason: end, terminated: true } : { reason: end, terminated: true, cause },
      },
    };
  }
}

import type { ChannelState } from '../contracts/channels.js';
import type { Effect } from '../contracts/effect.js';
import { ErrorDetail } from '../contracts/error-detail.js';
import type { Notice } from '../contracts/notice.js';
import type { EngineDeathCause } from '../model/fault-kinds.js';
import { hostFailure } from '../model/host-problems.js';
import type { ChannelOutput, ExecOutcome } from '../model/host-types.js';
import type { EngineEnd } from './engine-process.js';
import type { SinkCall } from './engine-protocol.js';

/** What one forwarded sink call counts against its run's budget of forwarded bytes. */
export function sinkCallBytes(call: SinkCall): number {
  if (call[0] === 'write') return call[2].length + (call[3]?.length ?? 0);
  if (call[0] === 'setState') return call[1].length;
  return JSON.stringify(call[1]).length;
}

/**
 * What the service saw of one run while it was in the engine: every accepted write, state
 * change and notice, forwarded as it happened. If the engine dies, this is the output the run
 * keeps. Also counts the bytes the engine forwarded, so an engine that floods is caught.
 */
export class SeenRun {
  readonly channels: Record<string, ChannelOutput> = {};
  readonly notices: Notice[] = [];
  bytes = 0;

  apply(call: SinkCall): void {
    this.bytes += sinkCallBytes(call);
    if (call[0] === 'write') {
      const [, name, chunk, mimetype] = call;
      const channel = (this.channels[name] ??= {
        mimetype: mimetype ?? 'text/plain',
        state: 'active',
        text: '',
        parts: [],
      });
      const partType = mimetype ?? channel.parts.at(-1)?.mimetype ?? channel.mimetype;
      if (mimetype !== undefined) channel.mimetype = mimetype;
      const last = channel.parts.at(-1);
      if (last !== undefined && last.mimetype === partType) last.text += chunk;
      else channel.parts.push({ mimetype: partType, text: chunk });
      channel.text += chunk;
    } else if (call[0] === 'setState') {
      const [, name, state] = call;
      (this.channels[name] ??= { mimetype: 'text/plain', state, text: '', parts: [] }).state = state;
    } else {
      this.notices.push(call[1]);
    }
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
    for (const channel of Object.values(this.channels))
      if (channel.state === 'active') channel.state = 'errored' as ChannelState;
    return {
      outcome: 'leaf-fault',
      result: hostFailure(end, detail),
      effect,
      address,
      channels: this.channels,
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

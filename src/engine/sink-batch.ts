import type { SinkCall } from './engine-protocol.js';

/**
 * Estimated bytes at which a batch is sent at once: well under the smallest engine frame bound
 * (engine-limits.ts, at least 4 MiB), yet large enough that a frame's fixed cost is small.
 */
export const SINK_BATCH_BYTES = 1024 * 1024;

/** One batch on the wire: `[run id, call]` in the order the engine's thread host accepted them. */
export interface SinkBatchFrame {
  t: 'sinks';
  calls: [number, SinkCall][];
}

/**
 * Gathers the sink calls the engine forwards in one event-loop turn — every run's, in order —
 * into one frame: one frame per call cost more than the bytes it carried (a 64 KiB write ran at
 * 0.40× raw IPC, and a flood of one-character writes held the service's main thread for every
 * other tag). The batch goes out at the end of the turn (`setImmediate`), in the same write as
 * any other frame, ahead of it (`take`, called by the engine's every send), or once it holds
 * `maxBytes`. What it holds when the engine dies is lost; everything sent before is the service's.
 */
export class SinkBatch {
  private calls: [number, SinkCall][] = [];
  private bytes = 0;
  private scheduled = false;
  private readonly atTurnEnd = () => {
    this.scheduled = false;
    this.flush();
  };

  constructor(
    private readonly send: (frame: SinkBatchFrame) => void,
    private readonly maxBytes = SINK_BATCH_BYTES,
  ) {}

  /** Queues one call of run `id`: a call that would take the batch past its bound goes in the next one. */
  add(id: number, call: SinkCall): void {
    const size = estimateBytes(call);
    if (this.calls.length > 0 && this.bytes + size > this.maxBytes) this.flush();
    if (!this.joined(id, call)) this.calls.push([id, call]);
    this.bytes += size;
    if (this.bytes >= this.maxBytes) return this.flush();
    if (!this.scheduled) {
      this.scheduled = true;
      setImmediate(this.atTurnEnd);
    }
  }

  /**
   * Joins a write without a mimetype to the batch's last call when that is the same run's write
   * (or writes) to the same channel without one: a flood of small writes crosses as one array of
   * chunks, not an array per write, each chunk still applied as its own write.
   */
  private joined(id: number, call: SinkCall): boolean {
    if (call[0] !== 'write' || call[3] !== undefined) return false;
    const last = this.calls[this.calls.length - 1];
    if (last === undefined || last[0] !== id) return false;
    const before = last[1];
    if (before[1] !== call[1]) return false;
    if (before[0] === 'writes') before[2].push(call[2]);
    else if (before[0] === 'write' && before[3] === undefined) last[1] = ['writes', call[1], [before[2], call[2]]];
    else return false;
    return true;
  }

  /** Sends what is queued, if anything: every other frame the engine sends goes after it. */
  flush(): void {
    const frame = this.take();
    if (frame !== undefined) this.send(frame);
  }

  /** What is queued, as the frame to send now ahead of another (one write for both), or undefined when nothing is. */
  take(): SinkBatchFrame | undefined {
    if (this.calls.length === 0) return undefined;
    const calls = this.calls;
    this.calls = [];
    this.bytes = 0;
    return { t: 'sinks', calls };
  }
}

/** A call's V8-serialized size, estimated: two bytes a character (a two-byte string) plus an envelope — a bound for text. */
function estimateBytes(call: SinkCall): number {
  const envelope = 32;
  if (call[0] === 'write') return envelope + 2 * (call[1].length + call[2].length + (call[3]?.length ?? 0));
  if (call[0] === 'setState') return envelope + 2 * (call[1].length + call[2].length);
  if (call[0] === 'writes') return envelope + 2 * call[2].reduce((sum, chunk) => sum + chunk.length, call[1].length);
  return envelope + 2 * JSON.stringify(call[1]).length;
}

import type { Duplex } from 'node:stream';
import { DefaultSerializer, deserialize } from 'node:v8';
import { awaitNextTurn, currentTurn } from '../runtime/loop-turn.js';
import { FRAME_SHARE, frameCost } from './frame-share.js';

/** What a frame channel reports when the other side sent something it cannot read. */
export type CorruptHandler = (why: string) => void;

/** One end of a framed channel: `send` values, every value the other side sent to `onFrame`. */
export interface FrameChannel {
  /** Sends each value as a frame, in order, in one write: the other side wakes once for all of them. */
  send(...values: unknown[]): boolean;
  close(): void;
}

const HEADER_BYTES = 4;

/**
 * Frames values over a byte stream (a pipe between the service and the engine): a 4-byte
 * big-endian length, then the value in V8's serialization — what the child_process channel's
 * `serialization: 'advanced'` sends, but read here. Node's own IPC channel deserializes in its
 * socket listener, where a forged frame (any thread of the engine can write to the channel's
 * fd) throws an uncaught exception in the service; here a frame larger than `maxFrameBytes`, a
 * frame V8 cannot read, or a listener that throws is reported to `onCorrupt` once and the
 * channel stops reading. Never throws. It reads at most {@link FRAME_SHARE} of each turn of the
 * loop (frame-share.ts), on the turn clock the thread channels share (runtime/loop-turn.ts):
 * past it, the stream pauses until the next turn, so a flooding engine's pipe cannot hold the
 * main thread from every other pipe, port and timer.
 */
export function openFrameChannel(
  stream: Duplex,
  maxFrameBytes: number,
  onFrame: (value: unknown) => void,
  onCorrupt: CorruptHandler,
): FrameChannel {
  let pending: Buffer[] = [];
  let pendingBytes = 0;
  let broken = false;
  const fail = (why: string) => {
    if (broken) return;
    broken = true;
    pending = [];
    stream.removeListener('data', onData);
    try {
      onCorrupt(why);
    } catch {
      // The corrupt handler restarts the engine; a throw there must still not reach the process.
    }
  };
  /** The turn `spent` counts in, how much of its share the channel has taken, and whether it waits for the next turn. */
  let turn = -1;
  let spent = 0;
  let waiting = false;
  const spend = (cost: number): boolean => {
    const now = currentTurn();
    if (now !== turn) {
      turn = now;
      spent = 0;
    }
    spent += cost;
    return spent >= FRAME_SHARE;
  };
  const nextTurn = () => {
    waiting = false;
    readFrames();
    if (!waiting && !broken) stream.resume();
  };
  const readFrames = () => {
    while (!broken && pendingBytes >= HEADER_BYTES) {
      if (pending[0]!.length < HEADER_BYTES) pending = [Buffer.concat(pending)];
      const length = pending[0]!.readUInt32BE(0);
      if (length > maxFrameBytes) return fail(`a frame of ${length} bytes (the bound is ${maxFrameBytes})`);
      // Joined only once the whole frame is here, so a large frame in many chunks is copied once.
      if (pendingBytes < HEADER_BYTES + length) return;
      const head = pending.length === 1 ? pending[0]! : Buffer.concat(pending);
      const body = head.subarray(HEADER_BYTES, HEADER_BYTES + length);
      const rest = head.subarray(HEADER_BYTES + length);
      pending = rest.length === 0 ? [] : [rest];
      pendingBytes = rest.length;
      let value: unknown;
      try {
        value = deserialize(body);
      } catch (error) {
        return fail(`a frame V8 could not read (${error instanceof Error ? error.message : 'unknown'})`);
      }
      try {
        onFrame(value);
      } catch (error) {
        return fail(`a frame its reader refused (${error instanceof Error ? error.message : 'unknown'})`);
      }
      if (spend(frameCost(value)) && !broken) {
        // The rest of this read, and every read after it, waits for the next turn.
        waiting = true;
        stream.pause();
        return awaitNextTurn(nextTurn);
      }
    }
  };
  const onData = (chunk: Buffer) => {
    if (broken) return;
    pending.push(chunk);
    pendingBytes += chunk.length;
    if (!waiting) readFrames();
  };
  stream.on('data', onData);
  // A write to a pipe whose reader died is reported on the stream, never as an uncaught error.
  stream.on('error', () => {});
  return {
    send(...values) {
      if (broken || stream.destroyed || !stream.writable) return false;
      try {
        if (values.length === 1) stream.write(serializeFrame(values[0]));
        else {
          // Corked and uncorked at once: the frames leave in one writev, and none is copied to join them.
          const frames = values.map(serializeFrame);
          stream.cork();
          try {
            for (const frame of frames) stream.write(frame);
          } finally {
            // A stream left corked would hold every later frame back.
            stream.uncork();
          }
        }
        return true;
      } catch {
        return false;
      }
    },
    close() {
      broken = true;
      stream.removeListener('data', onData);
      stream.destroy();
    },
  };
}

const NO_LENGTH = new Uint8Array(HEADER_BYTES);

/**
 * One frame in one buffer, as `v8.serialize` would write the body but with room for the length
 * in front: joining a header to the serialized body copied every frame once more.
 */
function serializeFrame(value: unknown): Buffer {
  const serializer = new DefaultSerializer();
  serializer.writeRawBytes(NO_LENGTH);
  serializer.writeHeader();
  serializer.writeValue(value);
  const frame = serializer.releaseBuffer();
  frame.writeUInt32BE(frame.length - HEADER_BYTES, 0);
  return frame;
}

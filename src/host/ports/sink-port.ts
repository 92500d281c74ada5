import { MessageChannel, receiveMessageOnPort, type MessagePort } from 'node:worker_threads';
import { expose, type Endpoint } from 'comlink';
import { takeQueued } from '../../runtime/port-queue.js';
import * as v from 'valibot';
import {
  ClientInteractionRequestSchema,
  ClientInteractionResolutionSchema,
  type ClientInteractionResolution,
} from '../../contracts/notice.js';
import type { SinkApi, SinkCall, SinkWrite } from '../../contracts/protocol.js';
import { describeIssue } from '../../contracts/result.js';
import type { ViolationKind } from '../../contracts/violation.js';
import type { EmbeddingSinks } from '../host-types.js';
import type { RunStream } from './run-stream.js';

const EntryArgsSchema = v.tuple([
  v.pipe(v.string(), v.nonEmpty('path must not be empty')),
  v.nullable(v.string()),
  v.strictObject({ tags: v.array(v.string()), mimetype: v.optional(v.string()) }),
]);

/** Queued messages taken per 'message' event after small writes… */
const DRAIN_MAX = 64;
/** …where small means at most this many characters. */
const SMALL_WRITE = 1024;

/** The host's end of a run's sink port. */
export interface SinkPort {
  /** The end to transfer with the run task. */
  readonly workerPort: MessagePort;
  /**
   * Applies every sink call already queued on the port, now. A thread that died or was
   * terminated posted its last writes before it went, but their 'message' events may come a
   * loop turn after the host learnt of its end, too late for the run's outcome.
   */
  drain(): void;
  close(): void;
}

/**
 * Exposes a run's sinks over a new MessagePort: `write`/`setState`/`emit` arrive as bare
 * {@link SinkCall} arrays or {@link SinkWrite} strings, the rest as comlink calls. Both are
 * handled synchronously for each message, in arrival order, so every call lands in the order
 * the leaf made it and `flush` answers only after all of them.
 * `interact` and `entry` round-trip to the embedding service's sinks; a malformed request
 * or answer rejects in the leaf and is recorded.
 */
export function exposeSinks(stream: RunStream, sinks: EmbeddingSinks = {}): SinkPort {
  const { port1, port2 } = new MessageChannel();
  const api: SinkApi = {
    write: (channel, chunk, mimetype) => stream.write(channel, chunk, mimetype),
    setState: (channel, state) => stream.setState(channel, state),
    emit: (notice) => stream.emit(notice),
    flush: () => {},
    async interact(request) {
      const parsed = v.safeParse(ClientInteractionRequestSchema, request);
      if (!parsed.success)
        throw refuse(
          stream,
          'invalid-interaction',
          `interact: invalid request (${parsed.issues.map(describeIssue).join('; ')})`,
        );
      const answer: unknown = sinks.interact
        ? await sinks.interact(parsed.output)
        : ({ outcome: 'declined' } satisfies ClientInteractionResolution);
      const resolution = v.safeParse(ClientInteractionResolutionSchema, answer);
      if (!resolution.success) {
        throw refuse(
          stream,
          'embedding-sink',
          `the embedding service's interact sink answered an invalid resolution (${resolution.issues.map(describeIssue).join('; ')})`,
        );
      }
      return resolution.output;
    },
    async entry(path, content, opts) {
      const parsed = v.safeParse(EntryArgsSchema, [path, content, opts]);
      if (!parsed.success)
        throw refuse(
          stream,
          'invalid-entry',
          `entry: invalid arguments (${parsed.issues.map(describeIssue).join('; ')})`,
        );
      if (!sinks.entry) throw new Error('entry: the embedding service offers no entry sink');
      const address: unknown = await sinks.entry(...parsed.output);
      if (typeof address !== 'string')
        throw refuse(
          stream,
          'embedding-sink',
          `the embedding service's entry sink resolved ${typeof address}, not an address string`,
        );
      return address;
    },
  };
  // One listener sees every message in arrival order: bare arrays and strings are
  // fire-and-forget calls, anything else goes to comlink. comlink never sees the (many)
  // writes, which it would parse.
  let comlink: ((event: { data: unknown }) => void) | undefined;
  // The channel a bare-string write goes to: the worker's sink proxy follows the same rule.
  let current: string | undefined;
  // Returns whether the message was a small write, after which taking the next queued one is worth it.
  const receive = (message: unknown): boolean => {
    if (typeof message === 'string') {
      applyShortWrite(stream, current, message);
      return message.length <= SMALL_WRITE;
    }
    if (!Array.isArray(message)) {
      comlink?.({ data: message });
      return false;
    }
    const call = message as unknown as SinkCall;
    applySinkCall(stream, call);
    if (call[0] !== 'write') return true;
    if (typeof call[1] === 'string' && typeof call[2] === 'string' && call[3] === undefined) current = call[1];
    return typeof call[2] !== 'string' || call[2].length <= SMALL_WRITE;
  };
  port1.on('message', (message: unknown) => {
    // Small writes are dominated by the cost of one event dispatch each (a MessageEvent, a
    // listener walk): take what is already queued directly, a bounded number at a time.
    let small = receive(message);
    for (let i = 0; small && i < DRAIN_MAX; i++) {
      const next = receiveMessageOnPort(port1);
      if (next === undefined) break;
      small = receive(next.message);
    }
  });
  const endpoint: Endpoint = {
    postMessage: (message, transfer) => port1.postMessage(message, transfer as never),
    addEventListener: (_type, listener) => {
      comlink = (event) =>
        typeof listener === 'function' ? listener(event as never) : listener.handleEvent(event as never);
    },
    removeEventListener: () => {
      comlink = undefined;
    },
  };
  expose(api, endpoint);
  return { workerPort: port2, drain: () => takeQueued(port1, receive), close: () => port1.close() };
}

/** Applies one `write`/`setState`/`emit` the leaf made; the stream validates the arguments. */
function applySinkCall(stream: RunStream, call: SinkCall): void {
  switch (call[0]) {
    case 'write':
      return stream.write(call[1], call[2], call[3]);
    case 'setState':
      return stream.setState(call[1], call[2]);
    case 'emit':
      return stream.emit(call[1]);
    default:
      return stream.violate(
        'malformed-sink-call',
        `unknown sink call ${JSON.stringify((call as unknown[])[0]) ?? typeof (call as unknown[])[0]}`,
      );
  }
}

/** Applies a {@link SinkWrite}: `chunk` for the channel of the last plain write. */
function applyShortWrite(stream: RunStream, channel: string | undefined, chunk: SinkWrite): void {
  if (channel === undefined)
    return stream.violate('malformed-sink-call', 'a bare-string write arrived before any write named its channel');
  stream.write(channel, chunk);
}

/** Records a violation and returns the error the leaf's awaited call rejects with. */
function refuse(stream: RunStream, kind: ViolationKind, message: string): TypeError {
  stream.violate(kind, message);
  return new TypeError(message);
}

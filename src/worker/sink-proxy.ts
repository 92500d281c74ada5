import type { MessagePort } from 'node:worker_threads';
import type { ExecArgs } from '../contracts/exec-args.js';
import type { ClientInteractionResolution } from '../contracts/notice.js';
import type { SinkAnswer, SinkCall, SinkRequest, SinkWrite } from '../contracts/sink-protocol.js';
import { deserializeError } from '../contracts/serialized-error.js';
import { RING_NOTHING } from '../contracts/sink-ring.js';
import type { SinkRingWriter } from './sink-ring-writer.js';

/** The sink half of a run's ExecArgs, proxied to the host, plus the barrier the worker awaits. */
export interface ProxiedSinks {
  readonly sinks: Pick<ExecArgs, 'write' | 'setState' | 'emit' | 'interact' | 'entry'>;
  /** Resolves once the host has applied every sink call made before it. */
  flush(): Promise<void>;
  /**
   * The end of a run's calls: a {@link flush} barrier when more than {@link TAKEN_AT_REPLY}
   * messages were posted since the last one; else none, since the host takes that many from the
   * port when the run's reply reaches it (they were queued there before the reply was posted).
   */
  settle(): Promise<void>;
  /** Ends the run's use of the channel: later calls of its sinks post nothing. */
  close(): void;
}

type Pending = { resolve: (value: unknown) => void; reject: (error: Error) => void };

/**
 * How many sink messages a run may leave unflushed behind its reply: the host applies them from
 * the port, synchronously, when the reply arrives (execute-run.ts), and a barrier would cost the
 * run one more round trip to the host's main thread (~0.1–0.5 ms, most of it waking it).
 */
export const TAKEN_AT_REPLY = 32;

/** Requests awaiting their answer, by id: ids are unique in the thread, whatever run made them. */
const pending = new Map<number, Pending>();
let nextId = 1;
/** Sink channels whose answer listener is installed (a thread has one for its life). */
const listening = new WeakSet<MessagePort>();

function listen(port: MessagePort): void {
  if (listening.has(port)) return;
  listening.add(port);
  port.on('message', (answer: SinkAnswer) => {
    const waiting = pending.get(answer?.id);
    if (waiting === undefined) return;
    pending.delete(answer.id);
    if (answer.ok) waiting.resolve(answer.value);
    else waiting.reject(deserializeError(answer.error));
  });
}

/**
 * Builds a run's sinks over `port`. `write`, `setState` and `emit` stay synchronous for the
 * leaf and post one bare {@link SinkCall} each (a write to the channel of the last plain
 * write: a {@link SinkWrite}), at once — never deferred, so what a leaf wrote before it blocks
 * or dies has already left the thread — with no call id and no answer, which would cost more
 * than the write itself. With the thread's `ring`, a short {@link SinkWrite} goes into it
 * instead (the host reads it there, even after the thread died), and every message is posted at
 * a mark in it. `interact`, `entry` and `flush` are {@link SinkRequest}s on the same
 * port, answered by id, so the host applies everything in the leaf's order. `entry` exists
 * only when the embedding service offers it (`hasEntry`). At most `budget` calls are
 * made (a ring write is one); the first call past it is told to `onOverBudget`.
 */
export function proxySinks(
  port: MessagePort,
  options: {
    readonly hasEntry: boolean;
    readonly budget: number;
    readonly onOverBudget?: () => void;
    /** The thread's sink ring: short writes go there, and every message posted is marked in it. */
    readonly ring?: SinkRingWriter | undefined;
  },
): ProxiedSinks {
  const { hasEntry, budget, onOverBudget = () => {}, ring } = options;
  // Messages posted so far; at the budget every later call is dropped (the run's sink-message budget).
  let sent = 0;
  // Once the run is over its sinks post nothing: the channel is the thread's, and the next run's.
  let closed = false;
  const spend = (): boolean => {
    if (closed) return false;
    if (sent < budget) return ++sent <= budget;
    if (sent++ === budget) onOverBudget();
    return false;
  };
  // Messages that reached the host since the last flush: a run that wrote nothing needs no barrier.
  let unflushed = 0;
  // Posts `message` at a mark in the ring, so the host applies it after the ring's text before it.
  const send = (message: unknown) => {
    ring?.mark();
    try {
      port.postMessage(message);
    } catch (error) {
      // The mark is in the ring: something must answer it, or the host would wait there for the next message.
      if (ring !== undefined) port.postMessage(RING_NOTHING);
      throw error;
    }
  };
  const post = (call: SinkCall | SinkWrite) => {
    if (!spend()) return;
    unflushed += 1;
    try {
      send(call);
    } catch {
      // An argument that cannot be cloned is dropped.
    }
  };
  const request = (make: (id: number) => SinkRequest): Promise<unknown> => {
    if (!spend())
      return Promise.reject(
        new TypeError(
          closed
            ? 'the run is over: its sinks take no more calls'
            : `sink calls past the run's budget of ${budget} messages are dropped`,
        ),
      );
    listen(port);
    unflushed += 1;
    const id = nextId++;
    return new Promise((resolve, reject) => {
      pending.set(id, { resolve, reject });
      try {
        send(make(id));
      } catch (error) {
        pending.delete(id);
        reject(error as Error);
      }
    });
  };
  // The channel a bare-string write goes to (see SinkWrite); the host keeps the same.
  let current: string | undefined;
  const sinks: ProxiedSinks['sinks'] = {
    write: (channel, chunk, mimetype) => {
      const plain = typeof channel === 'string' && typeof chunk === 'string' && mimetype === undefined;
      if (plain && channel === current) {
        if (ring === undefined || !ring.takes(chunk)) return post(chunk);
        if (!spend()) return;
        unflushed += 1;
        return ring.text(chunk);
      }
      post(['write', channel, chunk, mimetype]);
      if (plain) current = channel;
    },
    setState: (channel, state) => post(['setState', channel, state]),
    emit: (notice) => post(['emit', notice]),
    interact: (req) => request((id) => ['interact', id, req]) as Promise<ClientInteractionResolution>,
    ...(hasEntry
      ? {
          entry: (path: string, content: string | null, opts: unknown) =>
            request((id) => ['entry', id, path, content, opts]) as Promise<string>,
        }
      : {}),
  };
  const flush = async () => {
    // Past the budget the host may have closed the port: no barrier would ever be answered.
    if (unflushed === 0 || sent >= budget) return;
    const barrier = request((id) => ['flush', id]);
    unflushed = 0;
    await barrier;
  };
  return {
    sinks,
    flush,
    async settle() {
      if (unflushed > TAKEN_AT_REPLY) await flush();
    },
    close: () => {
      closed = true;
    },
  };
}

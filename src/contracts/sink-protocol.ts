import type { SerializedError } from './serialized-error.js';

// The sink channel between one executor thread and the host: the calls a leaf's sinks post, the
// requests the host answers, and the budget that holds a run's posting. The control channel's
// messages and the tasks are in protocol.ts; the other limits on what a run may do, in limits.ts.

/**
 * The sinks the host serves to a run over its sink port. Arguments arrive unvalidated from
 * the leaf; the host validates and records violations. `flush` resolves once every call made
 * before it has been applied: the worker awaits it before returning. `write`, `setState` and
 * `emit` are fire-and-forget {@link SinkCall}s; `interact`, `entry` and `flush` are
 * {@link SinkRequest}s the host answers with a {@link SinkAnswer}. Nothing else is served: the
 * host looks a call's name up among these six and drops (and records) any other message.
 */
export interface SinkApi {
  write(channel: unknown, chunk: unknown, mimetype?: unknown): void;
  setState(channel: unknown, state: unknown): void;
  emit(notice: unknown): void;
  interact(request: unknown): Promise<unknown>;
  entry(path: unknown, content: unknown, opts: unknown): Promise<string>;
  flush(): void;
}

/**
 * Worker ⇒ host on the sink port: one fire-and-forget `write`, `setState` or `emit` call as
 * the leaf made it, arguments unvalidated, posted as a bare array.
 */
export type SinkCall =
  readonly ['write', unknown, unknown, unknown] | readonly ['setState', unknown, unknown] | readonly ['emit', unknown];

/**
 * How many messages one run may post on its sink port. Each one is applied on the host's main
 * thread, which every other tag's runs share: a leaf flooding its port for 4 s made a 5 ms run
 * of another tag take 3.5–6.3 s. The thread stops posting at the budget (later sink calls are
 * dropped) and tells the host; the host counts every message it receives as well, and past
 * the budget (and a little slack for the flush) closes the port. Either way the run is ended
 * like one past its output cap. 100,000 16-byte writes, the stream benchmark's largest run,
 * are a tenth of it.
 */
export const SINK_MESSAGES_PER_RUN = 1_000_000;

/**
 * Worker ⇒ host on the sink port: a call that is answered, `[name, id, ...arguments]`. The
 * host answers every one with a {@link SinkAnswer} carrying the same id, in arrival order
 * after every message before it was applied.
 */
export type SinkRequest =
  | readonly ['interact', number, unknown]
  | readonly ['entry', number, unknown, unknown, unknown]
  | readonly ['flush', number];

/** Host ⇒ worker on the sink port: how a {@link SinkRequest} ended. */
export type SinkAnswer =
  | { readonly id: number; readonly ok: true; readonly value: unknown }
  | { readonly id: number; readonly ok: false; readonly error: SerializedError };

/**
 * Worker ⇒ host on the sink port, the short form of a write: a bare string is a chunk for
 * the channel of the last `['write', channel, chunk]` call with a string chunk and no
 * mimetype, again with no mimetype. Both sides follow that rule, so a leaf writing many
 * small chunks to one channel posts strings, which cost less to clone and receive than arrays.
 */
export type SinkWrite = string;

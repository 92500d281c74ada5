import type { SerializedError } from './serialized-error.js';

// The sink channel between one executor thread and the host: the calls a leaf's sinks post, the
// requests the host answers. The control channel's messages and the tasks are in protocol.ts;
// the budgets that hold a run's posting and pending interactions are limits (limits.ts).

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

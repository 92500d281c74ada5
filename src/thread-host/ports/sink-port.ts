import type { MessagePort } from 'node:worker_threads';
import { describeLeafValue } from '../../runtime/describe-leaf-value.js';
import { describeThrow, guardListener } from '../../runtime/guard-listener.js';
import { DEFAULT_LIMITS, type Limits, type MachineLimit } from '../../contracts/limits.js';
import type { SinkAnswer, SinkApi, SinkWrite } from '../../contracts/sink-protocol.js';
import { RING_DOORBELL } from '../../contracts/sink-ring.js';
import { serializeError } from '../../contracts/serialized-error.js';
import type { EmbeddingSinks } from '../../model/host-types.js';
import type { RunStream } from './run-stream.js';
import { serveSinkApi } from './sink-api.js';
import { orderByRing, type RingOrder, type SinkRing } from './sink-ring.js';
import { ThreadPort } from './thread-port.js';

/** The host's end of a run's sink port. */
export interface SinkPort {
  /** The thread's end of the channel, transferred with the thread's first task. */
  readonly workerPort: MessagePort;
  /** True once the run posted past its budget: the channel was closed, and its thread must not serve another run. */
  readonly overflowed: boolean;
  /**
   * Applies every sink call already queued on the port, now. A thread that died or was
   * terminated posted its last writes before it went, but their 'message' events may come a
   * loop turn after the host learnt of its end, too late for the run's outcome.
   */
  drain(): void;
  /**
   * Unbinds (and closes a channel of its own). What is still queued is discarded, not applied:
   * after the run's reply was drained (or its flush barrier) only a leaf posting on its own can
   * have put it there, and the next run of the thread must not receive it.
   */
  close(): void;
}

/** A thread's long-lived sink channel and the sink ring handed to it with the channel. */
export interface SinkChannel {
  readonly channel: ThreadPort;
  readonly ring: SinkRing;
}

/** What a run's sink port serves, and how it is held. */
export interface SinkPortOptions extends Partial<SinkChannel> {
  /** The embedding service's own sinks; absent ones are not called. */
  readonly sinks?: EmbeddingSinks | undefined;
  /** The host's limits, whole (the memory limits of the host process and its engine are no port's concern). Default: the defaults. */
  readonly limits?: Omit<Limits, MachineLimit>;
  /** Told once when the run posts past its message budget (the port is closed then). */
  readonly onOverBudget?: () => void;
  /** The thread's long-lived sink channel; absent, a channel of its own (closed with the port). */
  readonly channel?: ThreadPort;
  /** The thread's sink ring (handed to it with `channel`): its short writes are read there. */
  readonly ring?: SinkRing;
}

/** Answers a request message once `call` settles with what it returns or throws. */
type Answered = (message: readonly unknown[], call: (args: readonly unknown[]) => unknown) => void;

/** What a message on the sink port asks for, by its name: the only calls a leaf can make. */
type Handler = (api: SinkApi, answered: Answered, message: readonly unknown[]) => void;

/**
 * Own properties of a null-prototype object: `constructor`, `__proto__` or `then` name nothing
 * here. One table for every run (a run's own table was a dictionary-mode object built per EXEC).
 */
const SINK_CALLS: Record<string, Handler> = Object.assign(Object.create(null) as Record<string, Handler>, {
  write: (api: SinkApi, _: Answered, m: readonly unknown[]) => api.write(m[1], m[2], m[3]),
  setState: (api: SinkApi, _: Answered, m: readonly unknown[]) => api.setState(m[1], m[2]),
  emit: (api: SinkApi, _: Answered, m: readonly unknown[]) => api.emit(m[1]),
  interact: (api: SinkApi, answered: Answered, m: readonly unknown[]) => answered(m, (args) => api.interact(args[0])),
  entry: (api: SinkApi, answered: Answered, m: readonly unknown[]) =>
    answered(m, (args) => api.entry(args[0], args[1], args[2])),
  flush: (api: SinkApi, answered: Answered, m: readonly unknown[]) => answered(m, () => api.flush()),
});

/**
 * Serves a run's sinks over `channel`, its thread's long-lived sink channel (a new one of its
 * own when absent): `write`/`setState`/`emit` arrive as bare
 * {@link SinkCall} arrays or {@link SinkWrite} strings, `interact`/`entry`/`flush` as
 * {@link SinkRequest} arrays answered with a {@link SinkAnswer}. A message's name is looked
 * up as an own property of a null-prototype table of those six calls; anything else a leaf
 * posts on its port (a comlink message walking `constructor.constructor`, a forged answer) is
 * dropped and recorded, so no property path of any host object is ever reached. Every
 * message is handled synchronously, in arrival order, so every call lands in the order the
 * leaf made it and `flush` answers only after all of them. `interact` and `entry`
 * round-trip to the embedding service's sinks, at most `limits.pendingInteractions`
 * interactions at once; a malformed request or answer, or one past the cap, rejects in the
 * leaf and is recorded. Past the run's message budget the port is closed and `onOverBudget`
 * told. No listener throws: a failure is recorded as a violation.
 */
export function exposeSinks(stream: RunStream, options: SinkPortOptions = {}): SinkPort {
  const { sinks = {}, limits = DEFAULT_LIMITS, onOverBudget = () => {}, channel, ring } = options;
  const budget = limits.sinkMessages;
  const port = channel ?? new ThreadPort();
  // Messages received; past the budget (and slack for requests the thread still makes) the port is closed.
  let received = 0;
  let closed = false;
  const api = serveSinkApi(stream, sinks, limits);
  const reply = (answer: SinkAnswer) => {
    try {
      port.post(answer);
    } catch (error) {
      stream.violate('host-error', `the host could not answer a sink call: ${describeThrow(error)}`);
    }
  };
  // Answers a request once `call` settles; the leaf's awaited promise resolves or rejects with it.
  const answered: Answered = (message, call) => {
    const id = message[1];
    if (typeof id !== 'number' || !Number.isSafeInteger(id))
      return stream.violate(
        'malformed-sink-call',
        `sink port: dropped a ${String(message[0])} call without a numeric id`,
      );
    void Promise.resolve()
      .then(() => call(message.slice(2)))
      .then(
        (value) => reply({ id, ok: true, value }),
        (error: unknown) => reply({ id, ok: false, error: serializeError(error) }),
      );
  };
  // The channel a bare-string write goes to: the worker's sink proxy follows the same rule.
  let current: string | undefined;
  // Counts `count` messages (or ring records); past the budget and its slack the port is closed.
  const admit = (count: number): boolean => {
    if (closed) return false;
    received += count;
    if (received <= budget + BUDGET_SLACK) return true;
    shut(
      `sink port: more than ${budget} messages in one run (limits.sinkMessages); the port was closed and later calls are lost`,
    );
    return false;
  };
  // Every later message is discarded by the closed port before it costs the main thread anything.
  const shut = (detail: string, overBudget = true) => {
    closed = true;
    port.close();
    stream.violate('malformed-sink-call', detail);
    if (overBudget) onOverBudget();
  };
  const apply = (message: unknown): void => {
    if (typeof message === 'string') return applyShortWrite(stream, current, message);
    const name: unknown = Array.isArray(message) ? message[0] : undefined;
    if (typeof name !== 'string' || !Object.hasOwn(SINK_CALLS, name)) {
      stream.violate(
        'malformed-sink-call',
        `sink port: dropped a message that is no sink call: ${describeLeafValue(message)}`,
      );
      return;
    }
    const call = message as readonly unknown[];
    SINK_CALLS[name]!(api, answered, call);
    if (name === 'write' && typeof call[1] === 'string' && typeof call[2] === 'string' && call[3] === undefined)
      current = call[1];
  };
  const order: RingOrder | undefined =
    ring &&
    orderByRing(ring, {
      apply,
      text: (chunk) => applyShortWrite(stream, current, chunk),
      admit,
      broken: (detail) => shut(`sink port: ${detail}; the port was closed and later calls are lost`, false),
    });
  const receive = (message: unknown): void => {
    if (closed) return;
    if (order === undefined) {
      if (admit(1)) apply(message);
      return;
    }
    // A doorbell is no call: the ring's records it announces are what count.
    if (message === RING_DOORBELL || admit(1)) order.receive(message);
  };
  const failed = (error: unknown) =>
    stream.violate('host-error', `the host's sink port listener failed: ${describeThrow(error)}`);
  const unbind = port.bind({
    receive,
    // A small write costs less than its event dispatch (a MessageEvent, a listener walk): what is
    // queued is taken directly, within the channel's share of the turn (thread-port.ts).
    pull: true,
    onThrow: failed,
    // A message the host cannot deserialize (nested too deep for its stack) would be dropped in silence.
    undeliverable: (error: unknown) =>
      stream.violate(
        'malformed-sink-call',
        `sink port: dropped a message the host could not deserialize: ${describeThrow(error)}`,
      ),
  });
  const drain = guardListener(() => {
    if (closed) return;
    for (let queued = port.take(); queued !== undefined; queued = port.take()) receive(queued.message);
    order?.drain();
  }, failed);
  let open = true;
  const close = () => {
    if (!open) return;
    open = false;
    while (port.take() !== undefined);
    order?.close();
    unbind();
    if (channel === undefined) port.close();
  };
  return new RunSinks(port.workerPort, () => closed, drain, close);
}

/** One run's sink port: a class, for a per-run object with a getter (contracts/output-budget.ts says why). */
class RunSinks implements SinkPort {
  constructor(
    readonly workerPort: MessagePort,
    private readonly isClosed: () => boolean,
    readonly drain: () => void,
    readonly close: () => void,
  ) {}

  get overflowed(): boolean {
    return this.isClosed();
  }
}

/** Messages past the budget still served: a thread that stopped at the budget still posts its flush. */
const BUDGET_SLACK = 64;

/** Applies a {@link SinkWrite}: `chunk` for the channel of the last plain write. */
function applyShortWrite(stream: RunStream, channel: string | undefined, chunk: SinkWrite): void {
  if (channel === undefined)
    return stream.violate('malformed-sink-call', 'a bare-string write arrived before any write named its channel');
  stream.write(channel, chunk);
}

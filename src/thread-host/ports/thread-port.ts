import { MessageChannel, receiveMessageOnPort, type MessagePort } from 'node:worker_threads';
import { guardListener } from '../../runtime/guard-listener.js';
import { awaitNextTurn, currentTurn } from '../../runtime/loop-turn.js';

/**
 * How much of one turn of the event loop one channel may take, in units of one small message
 * (a message with text weighs one more per {@link CHARS_PER_UNIT}). Past it the rest waits for
 * the next turn, so a thread that floods its channel costs every other run at most this much
 * per turn: ~0.25 ms here of one-character writes (~2 µs each on the main thread) or of 64 KiB
 * ones (seven), against the few µs a turn of the loop costs the flood.
 */
export const TURN_SHARE = 128;
/** Characters of a message's text that cost one more unit of {@link TURN_SHARE}. */
export const CHARS_PER_UNIT = 4096;

/** Who handles what arrives on a {@link ThreadPort} while it is bound. */
export interface PortReceiver {
  /** One message, in arrival order. */
  readonly receive: (message: unknown) => void;
  /**
   * Takes messages already queued directly, without their events, while the turn's share lasts:
   * for small messages, one event dispatch each (a MessageEvent, a listener walk) costs more than
   * the message.
   */
  readonly pull?: boolean;
  /** A message the host could not deserialize. */
  readonly undeliverable?: (error: unknown) => void;
  /** A throw from `receive`, which no listener lets escape. */
  readonly onThrow?: (error: unknown) => void;
}

/**
 * The host's end of one long-lived channel to a thread (its control or its sink channel).
 * Creating and transferring a MessageChannel per task cost more than the task's own round
 * trip (a no-op EXEC transferred three), so a thread gets each of its channels once and every
 * task binds the host's end in turn. Bindings queue: messages go to the oldest open binding,
 * and a binding's owner takes what is already queued before it unbinds, so one task's
 * messages never reach the next (the worker sends all of a task's messages before its reply;
 * see WorkerHandle.post for tasks that would overlap). While nothing is bound, `idle` hears.
 * A channel takes at most {@link TURN_SHARE} of each turn of the loop (loop-turn.ts): past it,
 * it stops its events and takes a share a turn in the clock's tick until its queue is empty (no
 * restart per turn), and the loop serves every other channel, socket and timer in between.
 */
export class ThreadPort {
  /** The end to transfer to the thread, with its first task. */
  readonly workerPort: MessagePort;
  private readonly port: MessagePort;
  private readonly bound: PortReceiver[] = [];
  private isClosed = false;
  /** Whether a task in flight holds the process alive through this channel ({@link hold}). */
  private held = false;
  /** The turn `spent` counts in, and how much of its share the channel has taken. */
  private turn = -1;
  private spent = 0;
  /**
   * True while the channel takes its messages in the turn clock's ticks, its 'message' listener
   * removed: a flood past one share is served a share a turn from there until its queue is empty.
   */
  private pulling = false;
  private readonly idle: PortReceiver;
  private readonly listener = guardListener((message: unknown) => this.serve({ message }));
  private readonly pullTurn = guardListener(() => {
    if (!this.isClosed) this.serve(receiveMessageOnPort(this.port));
  });

  /**
   * `idle` hears while nothing is bound; `intercept` sees every message first and keeps those it
   * returns true for (a task's reply on the control channel goes to its poster, not to a binding).
   */
  constructor(
    idle: PortReceiver = { receive: () => {} },
    private readonly intercept: (message: unknown) => boolean = () => false,
  ) {
    this.idle = guard(idle);
    const { port1, port2 } = new MessageChannel();
    this.port = port1;
    this.workerPort = port2;
    port1.on('message', this.listener);
    port1.on(
      'messageerror',
      guardListener((error: unknown) => this.current().undeliverable?.(error)),
    );
    // A thread's channel lives as long as the thread, which keeps the process alive by itself; an
    // idle host must be able to exit.
    port1.unref();
  }

  /** True once closed (by its thread's end, or by a binding that refused the rest of a flood). */
  get closed(): boolean {
    return this.isClosed;
  }

  /** Queues `receiver`; it hears messages once every binding before it unbound. Returns the unbind. */
  bind(receiver: PortReceiver): () => void {
    const guarded = guard(receiver);
    this.bound.push(guarded);
    return () => {
      const at = this.bound.indexOf(guarded);
      if (at >= 0) this.bound.splice(at, 1);
    };
  }

  /**
   * The next message already queued, taken now without its event and whatever the turn's share
   * says (a thread that died posted it before it went); undefined when none is.
   */
  take(): { message: unknown } | undefined {
    return this.isClosed ? undefined : receiveMessageOnPort(this.port);
  }

  /**
   * Hands every message already queued to the current binding, now, share or not (a thread that
   * died posted them before it went); with `until`, stops after the first message it is true for
   * (what follows a task's reply is for whoever is bound once its poster had a turn to unbind).
   */
  drain(until?: (message: unknown) => boolean): void {
    for (let queued = this.take(); queued !== undefined; queued = this.take()) {
      this.deliver(queued.message);
      if (until?.(queued.message) === true) return;
    }
  }

  /** Keeps the process alive while `held` (a task in flight is waited for); an idle channel does not. */
  hold(held: boolean): void {
    this.held = held;
    if (this.isClosed) return;
    if (held) this.port.ref();
    else this.port.unref();
  }

  post(message: unknown): void {
    if (!this.isClosed) this.port.postMessage(message);
  }

  /** Closes the host's end: every later message is dropped by the port, before it costs the main thread anything. */
  close(): void {
    this.isClosed = true;
    this.port.close();
  }

  /**
   * Delivers `queued` and what is queued behind it, within the turn's share: behind a 'message'
   * event only for a receiver that pulls (others take theirs by events), in a tick always. Past
   * the share, or after a reply `intercept` kept while pulling (its poster needs a turn to
   * unbind), the rest waits for the next turn; once the queue is empty, events come again.
   */
  private serve(queued: { message: unknown } | undefined): void {
    while (queued !== undefined) {
      const kept = this.deliver(queued.message);
      if (this.isClosed) return;
      if (this.spend(messageCost(queued.message)) || (this.pulling && !kept)) return this.pullNextTurn();
      if (!this.pulling && (!kept || this.current().pull !== true)) return;
      queued = receiveMessageOnPort(this.port);
    }
    if (!this.pulling) return;
    this.pulling = false;
    this.port.on('message', this.listener);
    // Adding a 'message' listener refs the port; an idle channel must not keep the process alive.
    if (!this.held) this.port.unref();
  }

  /** Hands `message` to the current binding; false when `intercept` kept it. */
  private deliver(message: unknown): boolean {
    if (this.intercept(message)) return false;
    this.current().receive(message);
    return true;
  }

  /** Counts `cost` against this turn's share; true once the share is spent. */
  private spend(cost: number): boolean {
    const now = currentTurn();
    if (now !== this.turn) {
      this.turn = now;
      this.spent = 0;
    }
    this.spent += cost;
    return this.spent >= TURN_SHARE;
  }

  /** Serves the rest a turn later, in the clock's tick; without a 'message' listener Node stops the port meanwhile. */
  private pullNextTurn(): void {
    if (!this.pulling) {
      this.pulling = true;
      this.port.off('message', this.listener);
    }
    awaitNextTurn(this.pullTurn);
  }

  private current(): PortReceiver {
    return this.bound[0] ?? this.idle;
  }
}

/** A receiver whose `receive` never throws (a throw goes to its `onThrow`). */
function guard(receiver: PortReceiver): PortReceiver {
  return { ...receiver, receive: guardListener(receiver.receive, receiver.onThrow) };
}

/**
 * What a message costs of a turn's share: one unit, and one more per {@link CHARS_PER_UNIT} of
 * its text — a string, or the strings among the first elements of an array (a sink call's
 * channel and chunk). Reading it costs nothing beside the message's own deserialization.
 */
function messageCost(message: unknown): number {
  let chars = 0;
  if (typeof message === 'string') chars = message.length;
  else if (Array.isArray(message))
    for (let i = 0; i < 4 && i < message.length; i++) {
      const part: unknown = message[i];
      if (typeof part === 'string') chars += part.length;
    }
  return 1 + Math.floor(chars / CHARS_PER_UNIT);
}

import { MessageChannel, receiveMessageOnPort, type MessagePort } from 'node:worker_threads';
import { guardListener } from '../../runtime/guard-listener.js';

/** Who handles what arrives on a {@link ThreadPort} while it is bound. */
export interface PortReceiver {
  /** One message, in arrival order (it may take more queued ones itself: {@link ThreadPort.next}). */
  readonly receive: (message: unknown) => void;
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
 */
export class ThreadPort {
  /** The end to transfer to the thread, with its first task. */
  readonly workerPort: MessagePort;
  private readonly port: MessagePort;
  private readonly bound: PortReceiver[] = [];
  private isClosed = false;

  /**
   * `idle` hears while nothing is bound; `intercept` sees every message first and keeps those it
   * returns true for (a task's reply on the control channel goes to its poster, not to a binding).
   */
  constructor(
    private readonly idle: PortReceiver = { receive: () => {} },
    private readonly intercept: (message: unknown) => boolean = () => false,
  ) {
    const { port1, port2 } = new MessageChannel();
    this.port = port1;
    this.workerPort = port2;
    port1.on(
      'message',
      guardListener((message: unknown) => this.deliver(message)),
    );
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
    const guarded = { ...receiver, receive: guardListener(receiver.receive, receiver.onThrow) };
    this.bound.push(guarded);
    return () => {
      const at = this.bound.indexOf(guarded);
      if (at >= 0) this.bound.splice(at, 1);
    };
  }

  /** The next message already queued, taken now without its event; undefined when none is. */
  next(): { message: unknown } | undefined {
    return this.isClosed ? undefined : receiveMessageOnPort(this.port);
  }

  /**
   * Hands every message already queued to the current binding, now (a thread that died posted
   * them before it went); with `until`, stops after the first message it is true for (what
   * follows a task's reply is for whoever is bound once its poster had a turn to unbind).
   */
  drain(until?: (message: unknown) => boolean): void {
    for (let queued = this.next(); queued !== undefined; queued = this.next()) {
      this.deliver(queued.message);
      if (until?.(queued.message) === true) return;
    }
  }

  /** Keeps the process alive while `held` (a task in flight is waited for); an idle channel does not. */
  hold(held: boolean): void {
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

  private deliver(message: unknown): void {
    if (!this.intercept(message)) this.current().receive(message);
  }

  private current(): PortReceiver {
    return this.bound[0] ?? this.idle;
  }
}

import type { MessagePort } from 'node:worker_threads';
import type { Effect } from '../../contracts/effect.js';
import {
  EFFECT_CODE,
  EFFECT_RETURNED,
  EFFECTS,
  isLoadStage,
  isTaskReplyMessage,
  TaskReplySchema,
  type TaskReply,
  type ThreadOpen,
  type WorkerTask,
} from '../../contracts/protocol.js';
import { keyedParser } from '../../contracts/keyed-variant.js';
import { describeIssue } from '../../contracts/result.js';
import { clipText, describeLeafValue } from '../../runtime/describe-leaf-value.js';
import type { SinkChannel } from '../ports/sink-port.js';
import { SinkRing } from '../ports/sink-ring.js';
import { ThreadPort, type PortReceiver } from '../ports/thread-port.js';

/** A task's answer, checked against the one kind its `ok` names (keyed-variant.ts). */
const parseTaskReply = keyedParser(TaskReplySchema);

/** A thread answered something that is no reply to the task it was given: the thread is retired. */
export class MalformedReplyError extends Error {
  override name = 'MalformedReplyError';
}

/** The task waiting for its reply. */
interface Waiting {
  readonly id: number;
  readonly resolve: (reply: TaskReply) => void;
  readonly reject: (error: Error) => void;
}

/**
 * Tasks to one thread and their replies, over the thread's control channel: one message each
 * way per task, where a piscina task cost a second channel's post and bookkeeping on the
 * host's main thread. Tasks go one at a time. A reply is hostile input like any message from a
 * thread: one that names no task in flight, or is no {@link TaskReply}, poisons the thread
 * (`poison` terminates it) and fails the task with a {@link MalformedReplyError}.
 */
export class TaskChannel {
  /** The thread's control channel: task replies are taken here, every other message goes to its bindings. */
  readonly control: ThreadPort;
  /** The thread's sink channel; between runs whatever arrives is dropped. */
  readonly sinks = new ThreadPort();
  /** Where the thread marks the last run task whose `effect()` returned an Effect, and which (ThreadOpen `marks`). */
  readonly marks = new SharedArrayBuffer(8);
  /** The thread's sink ring, read by each run's sink port in turn (ThreadOpen `ring`). */
  readonly ring = new SinkRing();
  /** The sink channel and ring together, as each run's sink port binds them (sink-port.ts). */
  readonly sinkChannel: SinkChannel = { channel: this.sinks, ring: this.ring };
  /** True once a reply showed the leaf loaded: later calls need no load deadline or `started`. */
  loaded = false;
  private readonly marked = new Int32Array(this.marks);
  private waiting: Waiting | undefined;
  /** The task in flight: a task is posted only once the one before settled (see post). */
  private inFlight: Promise<unknown> | undefined;
  /** Why the thread is gone: every later task fails with it. */
  private failure: Error | undefined;

  /** `idle` hears the control channel while no task is bound to it; `poison` retires the thread. */
  constructor(
    idle: PortReceiver,
    private readonly poison: (reason: string) => void,
  ) {
    this.control = new ThreadPort(idle, (message) => this.take(message));
  }

  /** The thread's one piscina task ({@link ThreadOpen}): the worker's ends of its channels, its marks and ring. */
  opening(): { open: ThreadOpen<MessagePort>; transferList: MessagePort[] } {
    const { control, sinks } = this;
    return {
      open: {
        kind: 'open',
        control: control.workerPort,
        sinks: sinks.workerPort,
        marks: this.marks,
        ring: this.ring.buffer,
      },
      transferList: [control.workerPort, sinks.workerPort],
    };
  }

  /**
   * Posts one task. Rejects only when the thread dies before it answers ({@link fail}), or
   * answers something that is no reply to it. A task posted while another is in flight (a spare
   * taken while it warms up) waits until that one settled and its caller had a turn to unbind,
   * so every message on the channels belongs to the oldest open binding.
   */
  post(task: WorkerTask): Promise<TaskReply> {
    const before = this.inFlight;
    const posted =
      before === undefined ? this.send(task) : before.then(afterATurn, afterATurn).then(() => this.send(task));
    const settled = posted.then(
      () => {},
      () => {},
    );
    this.inFlight = settled;
    void settled.then(() => {
      if (this.inFlight === settled) this.inFlight = undefined;
    });
    return posted;
  }

  /**
   * The Effect run task `task`'s `effect()` returned, once the thread marked it; undefined before.
   * The host bounds `effect()` alone with it while the task goes on (folded-effect.ts). A leaf
   * could forge the mark in its own thread, which gives it nothing its effect() could not say.
   */
  effectReturned(task: number): Effect | undefined {
    if (Atomics.load(this.marked, EFFECT_RETURNED) !== task) return undefined;
    return EFFECTS[Atomics.load(this.marked, EFFECT_CODE) - 1];
  }

  /**
   * The thread is gone, or going: the task waiting (after what the thread posted before it went
   * was taken) and every later one fail with `error` (the thread's own, e.g. out of memory),
   * else with `reason`.
   */
  fail(reason: string, error?: unknown): void {
    this.failure ??= error instanceof Error ? error : new Error(reason);
    this.control.drain();
    const waiting = this.waiting;
    this.waiting = undefined;
    waiting?.reject(this.failure);
  }

  private send(task: WorkerTask): Promise<TaskReply> {
    if (this.failure !== undefined) return Promise.reject(this.failure);
    // A task in flight keeps the process alive, as a piscina task did: a caller awaits it.
    this.control.hold(true);
    return new Promise<TaskReply>((resolve, reject) => {
      this.waiting = { id: task.id, resolve, reject };
      this.control.post({ type: 'task', task });
    }).finally(() => this.control.hold(false));
  }

  /** Keeps a reply from the bindings and settles its task; false for every other message. */
  private take(message: unknown): boolean {
    if (!isTaskReplyMessage(message)) return false;
    const waiting = this.waiting;
    this.waiting = undefined;
    const parsed = waiting?.id === message.id ? parseTaskReply(message.reply) : undefined;
    if (parsed?.success === true) {
      const reply = parsed.output as TaskReply;
      if (reply.ok || !isLoadStage(reply.stage)) this.loaded = true;
      waiting?.resolve(reply);
      return true;
    }
    const why =
      parsed === undefined
        ? `a reply to task ${message.id}, which it was not running`
        : `a malformed task reply (${clipText(parsed.issues.map(describeIssue).join('; '), 512)})`;
    const error = new MalformedReplyError(
      `the worker thread answered ${why}: ${describeLeafValue(message.reply)}; a leaf forged it or broke the protocol, and the thread was retired`,
    );
    this.failure ??= error;
    this.poison(error.message);
    waiting?.reject(error);
    return true;
  }
}

/** Resolves a macrotask later: the settled task's caller has unbound its channels by then. */
function afterATurn(): Promise<void> {
  return new Promise((resolve) => setImmediate(resolve));
}

import { MessagePort, parentPort, threadId } from 'node:worker_threads';
import { takeQueued } from '../runtime/port-queue.js';
import {
  decodeAbortReason,
  type HostControlMessage,
  type TaskReply,
  type TaskReplyMessage,
  type WorkerControlMessage,
  type WorkerTask,
} from '../contracts/protocol.js';
import { serializeError } from '../contracts/serialized-error.js';
import { startHeartbeat } from './heartbeat.js';
import { onProcessGroup } from '../author/process-groups.js';

/** The worker's end of one task's use of the thread's control channel. */
export interface ControlLink {
  /** Aborted with the host signal's reason when the host sends `abort`. */
  readonly signal: AbortSignal;
  /** Tells the host the leaf is loaded and the call starts now. */
  started(): void;
  /** Sends one report to the host on this task's port. */
  send(message: WorkerControlMessage): void;
  /** Aborts `signal` from inside the worker (a probe's signal once the probe settled). */
  abortLocally(): void;
  /** Stops the heartbeat and ends the task's use of the channel (its reply follows every report on it). */
  close(): void;
}

// One task runs at a time in an executor thread, so one link is active at most. Reports made
// while no task runs (a leaf's stray timer) go to the thread's parent port: the host reaps
// such process groups when it retires this thread.
let active: ControlLink | undefined;
// Captured before any leaf loads: a leaf that wraps MessagePort.prototype.postMessage must not
// be able to rewrite or drop a heartbeat, a violation, a process-group report or a task's reply.
const postOn = Function.prototype.call.bind(MessagePort.prototype.postMessage) as (
  port: MessagePort,
  message: unknown,
) => void;
// Captured the same way: a task's signal is a real one, whatever a leaf put in the global's place.
const Controller = AbortController;
onProcessGroup((pgid) => reportToHost({ type: 'process-group', pgid }));

/**
 * The next task's abort controller, its signal already made. It is made once the last task was
 * answered, while the thread waits for the next, so a run's path does not pay for it: on Node 20
 * a new AbortSignal gets a map of its own, and making one was a tenth of the thread's time in a
 * no-op EXEC (docs/performance.md). No task has used it, so nothing of an earlier one is on it.
 */
let readyController: AbortController | undefined;

function freshController(): AbortController {
  const controller = readyController ?? new Controller();
  readyController = undefined;
  return controller;
}

/** Makes the next task's controller and its signal now, off that task's path. */
function prepareNextTask(): void {
  if (readyController !== undefined) return;
  readyController = new Controller();
  void readyController.signal;
}

/** Sends `message` on the running task's control port, or on the thread's parent port between tasks. */
export function reportToHost(message: WorkerControlMessage): void {
  if (active) active.send(message);
  else if (parentPort) postOn(parentPort, message);
}

/** How many groups one task remembers having reported; past it, a repeated report is sent again. */
const REMEMBERED_GROUPS = 1024;

/** The running task's id and its abort. */
let running: { id: number; abort: (reason: unknown) => void } | undefined;
/** Aborts that arrived before their task did (an already-aborted caller signal), by task id. */
const early = new Map<number, unknown>();
/** Where the thread's tasks go, once its control channel was handed over (listenForTasks). */
let onTask: ((task: WorkerTask) => void) | undefined;

function receive(message: HostControlMessage): void {
  if (message?.type === 'task') onTask?.(message.task);
  else if (message?.type === 'abort') {
    const reason = decodeAbortReason(message.reason);
    if (running?.id === message.task) running.abort(reason);
    // Ids only grow: an abort for a later task is kept until it starts; one for an earlier task is late, and dropped.
    else if (running === undefined || message.task > running.id) early.set(message.task, reason);
  }
}

/**
 * Listens on `port`, the thread's control channel for its life, and hands each task the host
 * posts on it to `handle`, one after another in the order they came (the host posts the next
 * only once the last was answered; a forged extra one waits its turn too).
 */
export function listenForTasks(port: MessagePort, handle: (task: WorkerTask) => Promise<void>): void {
  let queue = Promise.resolve();
  onTask = (task) => {
    queue = queue.then(() => handle(task));
  };
  port.on('message', receive);
}

/**
 * Sends task `id`'s answer on `port`, after every report the task made (one channel keeps
 * their order). A value that cannot be cloned is answered as a failed reply instead.
 */
export function replyToHost(port: MessagePort, id: number, reply: TaskReply): void {
  try {
    postOn(port, { type: 'reply', id, reply } satisfies TaskReplyMessage);
  } catch (error) {
    const failed: TaskReply = { ok: false, stage: 'reply', error: serializeError(error), threadId };
    postOn(port, { type: 'reply', id, reply: failed } satisfies TaskReplyMessage);
  }
  prepareNextTask();
}

/**
 * Opens task `id`'s link over `port`, the thread's control channel, and makes it the thread's
 * active link. A heartbeat goes out every `heartbeatMs` until close, so the host can tell a
 * thread that stopped answering from one that is merely slow.
 */
export function openControlLink(port: MessagePort, heartbeatMs: number, id: number): ControlLink {
  const controller = freshController();
  const post = (message: WorkerControlMessage) => postOn(port, message);
  running = { id, abort: (reason) => controller.abort(reason) };
  // An abort the host sent before this task arrived is queued on the port or was kept: take it
  // now, so the leaf sees `signal.aborted` from its first line.
  takeQueued(port, (message) => receive(message as HostControlMessage));
  for (const [task, reason] of early) {
    if (task === id) controller.abort(reason);
    if (task <= id) early.delete(task);
  }
  const stopHeartbeat = startHeartbeat(post, heartbeatMs);
  // A child SubprocessExecutor starts is reported twice, by the spawn guard and by the executor's
  // own reportProcessGroup: the host vets a group's leader once per report (~0.2 ms of its main
  // thread, on the run's path when the leader is already gone), so a task reports each group once.
  // A null-prototype record and `in`: no method a leaf could replace decides whether a report goes.
  const reported = Object.create(null) as Record<number, true>;
  let remembered = 0;
  const send = (message: WorkerControlMessage) => {
    if (message.type === 'process-group' && typeof message.pgid === 'number') {
      if (message.pgid in reported) return;
      if (remembered < REMEMBERED_GROUPS) {
        reported[message.pgid] = true;
        remembered += 1;
      }
    }
    post(message);
  };
  const link: ControlLink = {
    signal: controller.signal,
    started: () => post({ type: 'started' }),
    send,
    abortLocally: () => controller.abort(new DOMException('the call settled', 'AbortError')),
    close() {
      stopHeartbeat();
      if (active === link) active = undefined;
      if (running?.id === id) running = undefined;
    },
  };
  active = link;
  return link;
}

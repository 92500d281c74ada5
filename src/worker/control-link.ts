import { MessagePort, parentPort } from 'node:worker_threads';
import { takeQueued } from '../runtime/port-queue.js';
import { decodeAbortReason, type HostControlMessage, type WorkerControlMessage } from '../contracts/protocol.js';
import { startHeartbeat } from './heartbeat.js';
import { onProcessGroup } from '../author/process-groups.js';

/** The worker's end of one task's control port. */
export interface ControlLink {
  /** Aborted with the host signal's reason when the host sends `abort`. */
  readonly signal: AbortSignal;
  /** Tells the host the leaf is loaded and the call starts now. */
  started(): void;
  /** Sends one report to the host on this task's port. */
  send(message: WorkerControlMessage): void;
  /** Aborts `signal` from inside the worker (a probe's signal once the probe settled). */
  abortLocally(): void;
  /**
   * Stops the heartbeat and ends the task's use of the channel once the host has handled every report sent so far. The barrier costs a
   * round trip, so it is skipped when nothing but heartbeats was sent, unless `barrier` asks for it (a
   * probe, whose latency the host counts from `started`, needs `started` handled too).
   */
  close(barrier?: boolean): Promise<void>;
}

// One task runs at a time in an executor thread, so one link is active at most. Reports made
// while no task runs (a leaf's stray timer) go to the thread's parent port: the host reaps
// such process groups when it retires this thread.
let active: ControlLink | undefined;
// Captured before any leaf loads: a leaf that wraps MessagePort.prototype.postMessage must not
// be able to rewrite or drop a heartbeat, a violation or a process-group report.
const postOn = Function.prototype.call.bind(MessagePort.prototype.postMessage) as (
  port: MessagePort,
  message: unknown,
) => void;
onProcessGroup((pgid) => reportToHost({ type: 'process-group', pgid }));

/** Sends `message` on the running task's control port, or on the thread's parent port between tasks. */
export function reportToHost(message: WorkerControlMessage): void {
  if (active) active.send(message);
  else if (parentPort) postOn(parentPort, message);
}

/** Waiters of `sync` barriers, by id: ids are unique in the thread, whatever task sent them. */
const waiting = new Map<number, () => void>();
let nextSync = 1;
/** The running task's id and its abort. */
let running: { id: number; abort: (reason: unknown) => void } | undefined;
/** Aborts that arrived before their task did (an already-aborted caller signal), by task id. */
const early = new Map<number, unknown>();
/** The control channel whose listener is installed (a thread gets one for its life). */
let listening: MessagePort | undefined;

function receive(message: HostControlMessage): void {
  if (message?.type === 'abort') {
    const reason = decodeAbortReason(message.reason);
    if (running?.id === message.task) running.abort(reason);
    // Ids only grow: an abort for a later task is kept until it starts; one for an earlier task is late, and dropped.
    else if (running === undefined || message.task > running.id) early.set(message.task, reason);
  } else if (message?.type === 'synced') {
    const resolve = waiting.get(message.id);
    waiting.delete(message.id);
    resolve?.();
  }
}

/**
 * Opens task `id`'s link over `port`, the thread's control channel, and makes it the thread's
 * active link. A heartbeat goes out every `heartbeatMs` until close, so the host can tell a
 * thread that stopped answering from one that is merely slow.
 */
export function openControlLink(port: MessagePort, heartbeatMs: number, id: number): ControlLink {
  const controller = new AbortController();
  let reported = false;
  const post = (message: WorkerControlMessage) => postOn(port, message);
  // Every report but a heartbeat must be handled before the task's reply: remember that one went out.
  const send = (message: WorkerControlMessage) => {
    if (message.type !== 'heartbeat') reported = true;
    post(message);
  };
  running = { id, abort: (reason) => controller.abort(reason) };
  if (listening !== port) {
    listening = port;
    port.on('message', receive);
  }
  // An abort the host sent before this task arrived is queued on the port or was kept: take it
  // now, so the leaf sees `signal.aborted` from its first line.
  takeQueued(port, (message) => receive(message as HostControlMessage));
  for (const [task, reason] of early) {
    if (task === id) controller.abort(reason);
    if (task <= id) early.delete(task);
  }
  const stopHeartbeat = startHeartbeat(post, heartbeatMs);
  const link: ControlLink = {
    signal: controller.signal,
    started: () => post({ type: 'started' }),
    send,
    abortLocally: () => controller.abort(new DOMException('the call settled', 'AbortError')),
    async close(barrier = false) {
      stopHeartbeat();
      if (active === link) active = undefined;
      if (running?.id === id) running = undefined;
      if (!barrier && !reported) return;
      const sync = nextSync++;
      // The host answers in order, so `synced` means every report before it was handled.
      await new Promise<void>((resolve) => {
        waiting.set(sync, resolve);
        post({ type: 'sync', id: sync });
      });
    },
  };
  active = link;
  return link;
}

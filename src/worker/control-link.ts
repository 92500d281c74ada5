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
   * Stops the heartbeat and closes the port once the host has handled every report sent so far. The barrier costs a
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

/**
 * Opens the worker's end of a task's control port and makes it the thread's active link. A
 * heartbeat goes out every `heartbeatMs` until close, so the host can tell a thread that
 * stopped answering from one that is merely slow.
 */
export function openControlLink(port: MessagePort, heartbeatMs: number): ControlLink {
  const controller = new AbortController();
  const waiting = new Map<number, () => void>();
  let nextSync = 1;
  let reported = false;
  const post = (message: WorkerControlMessage) => postOn(port, message);
  // Every report but a heartbeat must be handled before the task's reply: remember that one went out.
  const send = (message: WorkerControlMessage) => {
    if (message.type !== 'heartbeat') reported = true;
    post(message);
  };
  const receive = (message: HostControlMessage) => {
    if (message?.type === 'abort') controller.abort(decodeAbortReason(message.reason));
    else if (message?.type === 'synced') waiting.get(message.id)?.();
  };
  // An abort the host sent before this task arrived (an already-aborted caller signal) is
  // already queued on the port: take it now, so the leaf sees `signal.aborted` from its first line.
  takeQueued(port, (message) => receive(message as HostControlMessage));
  port.on('message', receive);
  const stopHeartbeat = startHeartbeat(post, heartbeatMs);
  const link: ControlLink = {
    signal: controller.signal,
    started: () => post({ type: 'started' }),
    send,
    abortLocally: () => controller.abort(new DOMException('the call settled', 'AbortError')),
    async close(barrier = false) {
      stopHeartbeat();
      if (active === link) active = undefined;
      if (!barrier && !reported) return port.close();
      const id = nextSync++;
      // The host answers in order, so `synced` means every report before it was handled.
      await new Promise<void>((resolve) => {
        waiting.set(id, resolve);
        post({ type: 'sync', id });
      });
      port.close();
    },
  };
  active = link;
  return link;
}

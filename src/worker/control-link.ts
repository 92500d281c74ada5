import { parentPort, type MessagePort } from 'node:worker_threads';
import { decodeAbortReason, type HostControlMessage, type WorkerControlMessage } from '../contracts/protocol.js';
import { onProcessGroup } from './process-groups.js';

/** The worker's end of one task's control port. */
export interface ControlLink {
  /** Aborted with the host signal's reason when the host sends `abort`. */
  readonly signal: AbortSignal;
  /** Tells the host the leaf is loaded and the call starts now. */
  started(): void;
  /** Aborts `signal` from inside the worker (a probe's signal once the probe settled). */
  abortLocally(): void;
  /**
   * Closes the port once the host has handled every report sent so far. The barrier costs a
   * round trip, so it is skipped when nothing was reported, unless `barrier` asks for it (a
   * probe, whose latency the host counts from `started`, needs `started` handled too).
   */
  close(barrier?: boolean): Promise<void>;
}

// One task runs at a time in an executor thread, so one link is active at most. Process
// groups reported while no task runs (a leaf's stray timer) go to the thread's parent port,
// and the host reaps them when it retires this thread.
let active: ControlLink & { report(pgid: number): void } | undefined;
onProcessGroup((pgid) => {
  if (active) active.report(pgid);
  else parentPort?.postMessage({ type: 'process-group', pgid } satisfies WorkerControlMessage);
});

/** Opens the worker's end of a task's control port and makes it the thread's active link. */
export function openControlLink(port: MessagePort): ControlLink {
  const controller = new AbortController();
  const waiting = new Map<number, () => void>();
  let nextSync = 1;
  let reported = false;
  const send = (message: WorkerControlMessage) => port.postMessage(message);
  port.on('message', (message: HostControlMessage) => {
    if (message?.type === 'abort') controller.abort(decodeAbortReason(message.reason));
    else if (message?.type === 'synced') waiting.get(message.id)?.();
  });
  const link = {
    signal: controller.signal,
    started: () => send({ type: 'started' }),
    abortLocally: () => controller.abort(new DOMException('the call settled', 'AbortError')),
    report: (pgid: number) => {
      reported = true;
      send({ type: 'process-group', pgid });
    },
    async close(barrier = false) {
      if (active === link) active = undefined;
      if (!barrier && !reported) return port.close();
      const id = nextSync++;
      // The host answers in order, so `synced` means every process-group report before it was handled.
      await new Promise<void>((resolve) => {
        waiting.set(id, resolve);
        send({ type: 'sync', id });
      });
      port.close();
    },
  };
  active = link;
  return link;
}

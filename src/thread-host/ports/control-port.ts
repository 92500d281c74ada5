import type { MessagePort } from 'node:worker_threads';
import { guardListener } from '../../runtime/guard-listener.js';
import { ThreadPort } from './thread-port.js';
import { openGroupClaims, type GroupClaims } from './group-claims.js';
import {
  encodeAbortReason,
  isWorkerControlMessage,
  type HostControlMessage,
  type WorkerControlMessage,
} from '../../contracts/protocol.js';

/** The host's end of one task's control channel. */
export interface ControlPort {
  /** The thread's end of the channel, transferred with the thread's first task. */
  readonly workerPort: MessagePort;
  /** The task's id on the channel: an abort names it, so a late one never reaches a later task. */
  readonly task: number;
  /** Resolves when the worker says the leaf is loaded and the call starts. */
  readonly started: Promise<void>;
  /** Every process group the task reported that is provably its own, in order (group-claims.ts). */
  readonly groups: ReadonlySet<number>;
  /** How many of its reports were refused: a task that made any is swept for its marker too. */
  readonly refusedGroups: number;
  /** How many processes the task started, as its reports say (`GroupClaims.started`). */
  readonly startedGroups: number;
  /** The first group the task reported: its first process (`GroupClaims.first`). */
  readonly firstGroup: number | undefined;
  /** Aborts the task's signal in the worker with (a clone of) `reason`. */
  abort(reason: unknown): void;
  /**
   * Handles every message already queued on the port, now: what a thread posted before it died
   * or was terminated is in the queue, but its 'message' events may come a loop turn later.
   */
  drain(): void;
  /** Drains, then unbinds (and closes a channel of its own): a report that arrived is never dropped (a process group must be reaped). */
  close(): void;
}

/** Who a task's process-group reports are claimed for, and who hears of a refused one. */
export interface GroupReports {
  /** The claims reports go to: a task's own (from its marker), or its thread's (a warm-up task). */
  readonly claims: GroupClaims;
  /** Told of each refused report (a run records it as a violation). */
  readonly onRefused?: (pgid: number, why: string) => void;
}

/** Ids of tasks on control channels, unique in this process. */
let lastTask = 0;

/** A new task id, for a task posted before its control port is opened ({@link openControlPort}'s `task`). */
export function nextTaskId(): number {
  return ++lastTask;
}

/**
 * Opens a task's control channel: `channel` is its thread's long-lived one (a new channel of
 * its own when absent). Process-group reports are claimed as they arrive (a forged one is
 * refused: group-claims.ts); the task's reply comes after all of them on the same channel, so
 * once it is read every report is in `groups`. Every valid message — heartbeats, output and
 * console reports, violations — is also handed to `listener`.
 * Anything else a thread posts is ignored, and nothing thrown while handling a message
 * escapes: it goes to `onThrow`. `reports` is the task's marker (its own claims) or whose
 * claims the reports go to; `task` its id, when it was taken before (the task posted first).
 */
export function openControlPort(
  reports: string | GroupReports,
  listener?: (message: WorkerControlMessage) => void,
  onThrow?: (error: unknown) => void,
  channel?: ThreadPort,
  task = nextTaskId(),
): ControlPort {
  const port = channel ?? new ThreadPort();
  const { claims, onRefused } = typeof reports === 'string' ? { claims: openGroupClaims(reports) } : reports;
  let markStarted!: () => void;
  const started = new Promise<void>((resolve) => (markStarted = resolve));
  const send = (message: HostControlMessage) => port.post(message);
  const receive = (message: unknown) => {
    if (!isWorkerControlMessage(message)) return;
    if (message.type === 'started') markStarted();
    else if (message.type === 'process-group') {
      const why = claims.claim(message.pgid);
      if (typeof why === 'string') onRefused?.(message.pgid, why);
    }
    listener?.(message);
  };
  // A report the host cannot deserialize (nested too deep for its stack) is no report; say so rather than drop it silently.
  const unbind = port.bind({ receive, undeliverable: (error) => onThrow?.(error), onThrow });
  const drain = guardListener(() => port.drain(), onThrow);
  let open = true;
  const close = () => {
    if (!open) return;
    open = false;
    drain();
    unbind();
    if (channel === undefined) port.close();
  };
  const abort = (reason: unknown) => send({ type: 'abort', task, reason: encodeAbortReason(reason) });
  return new TaskControl(port.workerPort, task, started, claims, abort, drain, close);
}

/** One task's control port: a class, for a per-run object with getters (contracts/output-budget.ts says why). */
class TaskControl implements ControlPort {
  constructor(
    readonly workerPort: MessagePort,
    readonly task: number,
    readonly started: Promise<void>,
    private readonly claims: GroupClaims,
    readonly abort: (reason: unknown) => void,
    readonly drain: () => void,
    readonly close: () => void,
  ) {}

  get groups(): ReadonlySet<number> {
    return this.claims.groups;
  }

  get refusedGroups(): number {
    return this.claims.refused;
  }

  get startedGroups(): number {
    return this.claims.started;
  }

  get firstGroup(): number | undefined {
    return this.claims.first;
  }
}

import type { MessagePort, Worker } from 'node:worker_threads';
import type { Piscina } from 'piscina';
import type { Effect } from '../../contracts/effect.js';
import {
  isTaskReplyMessage,
  isWorkerControlMessage,
  type TaskReply,
  type ThreadOpen,
  type WorkerTask,
  warmTask,
} from '../../contracts/protocol.js';
import { openControlPort, type ControlPort } from '../ports/control-port.js';
import { openGroupClaims } from '../ports/group-claims.js';
import { clipText } from '../../runtime/describe-leaf-value.js';
import { guardListener } from '../../runtime/guard-listener.js';
import { RunStream } from '../ports/run-stream.js';
import { exposeSinks, type SinkChannel } from '../ports/sink-port.js';
import type { ThreadPort } from '../ports/thread-port.js';
import { newRunMarker } from '../../runtime/run-marker.js';
import { IdleLoadMeter } from './idle-load.js';
import { TaskChannel } from './task-channel.js';
import { describeThreadError, startThreadPool, type WorkerSpec } from './thread-pool.js';

export { MalformedReplyError } from './task-channel.js';
export type { WorkerSpec } from './thread-pool.js';

/** Warm-up runs a new spare gets: one left a fresh thread's first EXEC ~2× a warm one; three about even. */
const WARM_UP_RUNS = 3;

/**
 * Where a thread is in its life: `starting` (a spare warming up), `idle` (waiting for a task),
 * `busy` (lent out), `retiring` (its termination was asked for, or it crashed), `dead` (ended).
 * A thread only moves forward to `retiring` and `dead`; `idle` and `busy` alternate until then.
 */
export type ThreadState = 'starting' | 'idle' | 'busy' | 'retiring' | 'dead';

/**
 * One executor thread: a piscina pool held at exactly one thread, so the host always knows
 * which thread runs which task (a shared pool hands a freed thread its next queued task
 * before the finished task's promise settles, too early to retire it). Owns the groups its
 * thread reported outside any task and the thread's death.
 */
export class WorkerHandle {
  /** The thread's `threadId`: tests prove recycling with it. */
  readonly threadId: number;
  /** The `PLURNK_EXECS_RUN` value of children the thread starts outside any task (at import, in its constructor, from a stray timer). */
  readonly marker = newRunMarker();
  /** When the thread was started (epoch ms): nothing it started is older. */
  readonly startedAt = Date.now();
  /** Runs this thread has executed (probes and effects do not count). */
  runs = 0;
  /** Warm-up tasks the thread answered ({@link warmUp}): for tests and diagnostics. */
  warmUps = 0;
  private readonly pool: Piscina<ThreadOpen<MessagePort>, void>;
  /** The thread's event-loop load while it has no task. */
  private readonly idleLoad: IdleLoadMeter;
  /**
   * Groups the thread reported outside any leaf task: between tasks, and in its warm-up tasks.
   * Live (the engine's namespace sweep spares its marker and groups) until {@link closeClaims}.
   * Its drain takes what is queued on the thread's control channel, which carries every task's
   * reports too: each goes to the claims of the task bound to it, up to a task's reply (what
   * follows is the next binding's, once the task's poster unbound, as when the events come).
   */
  private readonly strayGroups = openGroupClaims(this.marker, () => this.control.drain(isTaskReplyMessage));
  /** The warm-up task in flight, whose queued reports a retirement must not lose. */
  private warming: ControlPort | undefined;
  private phase: ThreadState = 'starting';
  /** Why the thread is retiring or dead. */
  private death: string | undefined;
  /** The termination in progress, once asked for (terminate() is idempotent). */
  private terminated: Promise<void> | undefined;
  /** Tasks and their replies, over the thread's control channel; between tasks only group reports are heard there. */
  private readonly tasks = new TaskChannel(
    {
      receive: (message) => {
        if (isWorkerControlMessage(message) && message.type === 'process-group') this.strayGroups.claim(message.pgid);
      },
    },
    (reason) => void this.terminate(reason),
  );

  constructor(spec: WorkerSpec) {
    this.pool = this.startPool(spec);
    const thread = this.pool.threads[0];
    if (thread === undefined) {
      this.strayGroups.close();
      throw new Error('piscina did not start a thread');
    }
    this.threadId = thread.threadId;
    this.idleLoad = new IdleLoadMeter(thread as unknown as Worker);
    const crashed = (reason: string, error?: unknown) => {
      if (this.terminated !== undefined) return;
      this.death ??= reason;
      this.phase = 'retiring';
      // The task in flight fails now, with what the thread posted before it went taken first.
      this.tasks.fail(this.death, error);
      spec.onCrash?.(this.death);
      // piscina starts a replacement thread in its own exit handler; this handle never reuses it.
      void this.terminate();
    };
    // The 'error' event (before 'exit') says why: out of memory, or an error in the thread itself.
    // No listener may throw: a throw here would reach the host process's last-resort handler.
    thread.once(
      'error',
      guardListener((error: unknown) => crashed(describeThreadError(error), error)),
    );
    thread.once(
      'exit',
      guardListener((code: number) => crashed(`the worker thread exited with code ${code}`)),
    );
    // Without a listener, piscina's 'error' event (a thread error outside any task) would crash the host.
    this.pool.on(
      'error',
      guardListener((error: unknown) => crashed(describeThreadError(error), error)),
    );
    this.pool.on(
      'message',
      guardListener((message: unknown) => {
        if (!isWorkerControlMessage(message)) return;
        if (message.type === 'process-group') this.strayGroups.claim(message.pgid);
        else if (message.type === 'fault')
          crashed(
            `an error escaped the leaf between calls: ${clipText(`${message.error.name}: ${message.error.message}`, 1024)}`,
          );
      }),
    );
    // piscina's one task: the thread's channels, for its life. Its end (or its loss with the thread) tells nothing.
    const { open, transferList } = this.tasks.opening();
    void this.pool.run(open, { transferList }).catch(() => {});
  }

  /** The thread's control channel, for the whole life of the thread. */
  get control(): ThreadPort {
    return this.tasks.control;
  }

  /** The thread's sink channel and ring, bound by each run's sink port in turn; between runs what arrives is dropped. */
  get sinkChannel(): SinkChannel {
    return this.tasks.sinkChannel;
  }

  /** The Effect run task `task`'s `effect()` returned, once it did (TaskChannel.effectReturned). */
  effectReturned(task: number): Effect | undefined {
    return this.tasks.effectReturned(task);
  }

  /** True once a task's reply showed the leaf loaded: later calls need no load deadline or `started`. */
  get loaded(): boolean {
    return this.tasks.loaded;
  }

  /** The pool of its one thread (thread-pool.ts); a pool that cannot start leaves the thread's claims closed. */
  private startPool(spec: WorkerSpec): Piscina<ThreadOpen<MessagePort>, void> {
    try {
      return startThreadPool({
        workerData: { ...spec.boot, marker: this.marker },
        env: spec.env,
      });
    } catch (error) {
      this.strayGroups.close();
      throw error;
    }
  }

  /** Where the thread is in its life. */
  get state(): ThreadState {
    return this.phase;
  }

  /** True until the thread is retiring or dead. */
  get alive(): boolean {
    return this.phase !== 'retiring' && this.phase !== 'dead';
  }

  /** Why the thread is gone, or undefined while it lives. */
  get deathReason(): string | undefined {
    return this.death;
  }

  /**
   * Posts one task on the thread's control channel ({@link TaskChannel.post}). Rejects only when
   * the thread dies or is terminated before it answers, or answers something that is no reply
   * to it: a malformed one poisons the thread (it is terminated) and rejects with a
   * {@link MalformedReplyError}.
   */
  post(task: WorkerTask): Promise<TaskReply> {
    if (!this.alive) return Promise.reject(new Error(this.death));
    return this.tasks.post(task);
  }

  /**
   * Runs a built-in no-op executor a few times through a run's path, its effect check included
   * (protocol.ts `warmTask`), never the leaf: a fresh spare's first EXEC ran that code cold
   * (lazily compiled, no feedback) and took 2–3× one on a warm thread. A child the leaf, still
   * loading, starts at import is reported on a warm-up task's port: a group of the thread's,
   * reaped when it is retired (or the host closes). Resolves when the warm-up ended (every warm
   * task awaits the leaf's load, so it loaded or failed by then); never rejects, and a thread
   * that dies meanwhile is handled like any other death. The start gate holds a start's slot
   * until then. A spare a task took while it warmed up stops after the first: the task goes next.
   */
  warmUp(runs = WARM_UP_RUNS): Promise<void> {
    return (async () => {
      this.idleLoad.stop();
      for (let i = 0; i < runs && this.alive && (i === 0 || this.phase !== 'busy'); i++, this.warmUps++) {
        const control = openControlPort({ claims: this.strayGroups }, undefined, undefined, this.control);
        this.warming = control;
        const sinks = exposeSinks(new RunStream({ warm: { mimetype: 'text/plain' } }), this.sinkChannel);
        try {
          await this.post(warmTask(control.task));
        } finally {
          this.warming = undefined;
          control.close();
          sinks.close();
        }
      }
      // A spare taken while it warmed up is busy now: its release marks it idle.
      if (this.phase === 'starting' || this.phase === 'idle') this.markIdle();
    })().catch(() => {});
  }

  /** Terminates the thread (idempotent); pending tasks reject. Its children are NOT killed: reap them. A termination the host asks for is never a crash. */
  terminate(reason = 'the host retired the worker thread'): Promise<void> {
    this.death ??= reason;
    if (this.phase !== 'dead') this.phase = 'retiring';
    // The task still waiting fails now: a thread blocked in the kernel may take long to end.
    this.tasks.fail(this.death);
    this.terminated ??= this.pool.destroy().finally(() => {
      this.phase = 'dead';
      // What the thread posted before it went goes to the task still bound (a run keeps its last
      // writes and reports), else the thread's own claims.
      this.control.drain();
      this.tasks.sinks.drain();
      this.control.close();
      this.tasks.sinks.close();
    });
    return this.terminated;
  }

  /**
   * Terminates the thread, waiting at most `ms` for it to go; true when it went. A thread
   * blocked in the kernel — `execSync` until its child dies, `openSync` of a FIFO nobody
   * writes to, forever — cannot stop until the call returns, and no wait of the host may hang
   * on it: it is retired either way, and ends when (if) the call returns.
   */
  async terminateWithin(ms: number, reason?: string): Promise<boolean> {
    let timer: NodeJS.Timeout | undefined;
    const ended = await Promise.race([
      this.terminate(reason).then(() => true),
      new Promise<boolean>((resolve) => (timer = setTimeout(resolve, ms, false))),
    ]);
    clearTimeout(timer);
    return ended;
  }

  /** The thread has no task from now on (given back, or warmed up): its idle load is measured from here; given back while it warms up, it is a spare again. */
  markIdle(): void {
    if (!this.alive) return;
    if (this.warming !== undefined) {
      this.phase = 'starting';
      return;
    }
    this.phase = 'idle';
    this.idleLoad.start();
  }

  /** The thread takes a task: what its event loop does now is the task's, not idle work. */
  markBusy(): void {
    if (this.alive) this.phase = 'busy';
    this.idleLoad.stop();
  }

  /**
   * The share of wall time (0–1) the thread's event loop was busy since it became idle or was last
   * sampled, and whether the idle-load policy retires it for that (thread-policy.ts); undefined
   * while it has a task or warms up. Read from the host, so a leaf cannot fake it.
   */
  judgeIdleLoad(): { utilization: number; retire: boolean } | undefined {
    if (this.phase !== 'idle' || this.warming !== undefined) return undefined;
    return this.idleLoad.judge();
  }

  /** How many of the thread's own group reports were refused as not its own (its marker is swept then). */
  get refusedStrayGroups(): number {
    return this.strayGroups.refused;
  }

  /** The thread owns nothing from now on: called once it is retired and what it left was reaped. */
  closeClaims(): void {
    this.strayGroups.close();
  }

  /** Process groups the thread reported outside any leaf task (between tasks, or while warming up); cleared by the call. */
  takeStrayGroups(): number[] {
    this.control.drain();
    return this.strayGroups.take();
  }
}

import * as v from 'valibot';
import { keyedParser } from './keyed-variant.js';
import type { Effect } from './effect.js';
import type { Limits } from './limits.js';
import { deserializeError, serializeError, type SerializedError } from './serialized-error.js';
import { ThreadViolationKindSchema, type ThreadViolationKind } from './violation.js';

// Message shapes between the host and one executor worker thread. The port type is a
// parameter so this file imports no thread library: the host instantiates it with
// node:worker_threads' MessagePort, the worker with the port it received.

/** What every executor worker is started with (`workerData`): the tag it serves and where the leaf is. */
export interface WorkerBoot {
  readonly tag: string;
  readonly glyph: string;
  /** file: URL of the module whose default export is the executor class. */
  readonly entryUrl: string;
  /** The host's limits, whole (limits.ts): what the thread holds a run to on its own side; absent ⇒ the defaults. */
  readonly limits?: Limits;
  /** The `PLURNK_EXECS_RUN` value children started outside any task carry (absent ⇒ the thread makes one up). */
  readonly marker?: string;
  /**
   * The leaf's own configuration keys in the thread's starting env: kept in `process.env`
   * beneath a run's env, as 1.x leaves read them from `process.env` whatever the run's env is.
   */
  readonly ownedEnvKeys?: readonly string[];
}

/** A thread's own memory, as it reports it with each heartbeat (bytes). */
export interface MemoryReport {
  readonly heapUsed: number;
  /** Memory outside the JS heap: Buffers, ArrayBuffers and WebAssembly memories included. */
  readonly external: number;
  readonly arrayBuffers: number;
}

/** Fields of one run that cross the thread; the sinks and signal are rebuilt in the worker. */
export interface RunRequest {
  readonly runtime: string;
  readonly body: string;
  readonly cwd: string | null;
  readonly target: string | null;
  /** The run's exact child environment, when the caller supplied one. */
  readonly env?: Record<string, string>;
  /** Whether the embedding service offers the optional `entry` sink. */
  readonly hasEntry: boolean;
}

/**
 * One task posted to a worker, as a {@link HostControlMessage} `task` on the thread's control
 * channel. A thread has one control channel and one sink channel for its whole life, handed
 * over once ({@link ThreadOpen}): creating and transferring two MessagePorts per task cost more
 * than the task's own round trip, and so did a piscina task per call. Tasks use them one at a
 * time; `id` names the task on the control channel (an abort meant for it never reaches a
 * later one, and its {@link TaskReplyMessage} carries it back). `announce: false` asks the
 * worker not to send `started` (one message fewer per task) when the host has no use for it: a
 * run, or a call on a thread whose leaf is known loaded.
 */
export type WorkerTask = (
  | {
      readonly kind: 'probe';
      /** Probe this tag of the thread's own package instead of its own (a package's tags share one thread at boot). */
      readonly as?: ProbeIdentity;
    }
  | { readonly kind: 'effect'; readonly target: string | null }
  | {
      readonly kind: 'run';
      readonly request: RunRequest;
      /**
       * Call `effect(request.target)` first, in the same task, where the caller passed no effect:
       * one round trip per EXEC instead of two. run() starts only once it returned an Effect,
       * which the thread marks ({@link ThreadOpen} `marks`); otherwise the task fails at stage
       * `effect` without a run.
       */
      readonly effect?: boolean;
    }
  /**
   * A run of a built-in no-op executor, never the leaf's: a new spare's first tasks, so its first
   * real run finds warm code. Shaped as a run whose effect is folded in (`request`, `effect`): the
   * thread reads the same shape and calls the same effect check as in its first real run.
   */
  | { readonly kind: 'warm'; readonly request: RunRequest; readonly effect: true }
) & {
  readonly id: number;
  readonly announce?: boolean;
  /** The `PLURNK_EXECS_RUN` value every child started during this task carries, so the host finds them at its end. */
  readonly marker?: string;
};

/** Warm-up task `id`, its fields in a run's order: a spare's first real run reads objects of shapes it has built. */
export function warmTask(id: number): WorkerTask {
  return { kind: 'warm', request: WARM_UP_REQUEST, id, announce: false, effect: true };
}
const WARM_UP_REQUEST: RunRequest = { runtime: 'warm', body: '', cwd: null, target: null, hasEntry: false };

/** A tag of the thread's own package (same entry module) whose executor a probe task constructs and probes. */
export interface ProbeIdentity {
  readonly tag: string;
  readonly glyph: string;
}

/**
 * The one piscina task a thread is given: its control and sink channels, for its whole life.
 * Every task after it travels on the control channel; piscina only starts and ends the thread.
 */
export interface ThreadOpen<Port = unknown> {
  readonly kind: 'open';
  readonly control: Port;
  readonly sinks: Port;
  /**
   * Where the thread marks that a run task's `effect()` returned an Effect, and which, so the host
   * can bound `effect()` alone while the task goes on and knows the fact even if the thread dies
   * in run() (an `Int32Array`: {@link EFFECT_RETURNED}, {@link EFFECT_CODE}).
   */
  readonly marks?: SharedArrayBuffer;
  /** The thread's sink ring (sink-ring.ts): absent, every sink call is a message on `sinks`. */
  readonly ring?: SharedArrayBuffer;
}

/** The index in {@link ThreadOpen} `marks` of the id of the last run task whose `effect()` returned an Effect… */
export const EFFECT_RETURNED = 0;
/** …and of that Effect, as its index in {@link EFFECTS} plus one (stored first). */
export const EFFECT_CODE = 1;
/** The Effects in the order {@link EFFECT_CODE} numbers them. */
export const EFFECTS: readonly Effect[] = ['pure', 'read', 'host'];

/**
 * Worker ⇒ host on the control channel: task `id`'s answer, after every report the task made
 * (one channel keeps their order, so no barrier is needed). `reply` is raw: a
 * {@link TaskReply} once the host validated it.
 */
export interface TaskReplyMessage {
  readonly type: 'reply';
  readonly id: number;
  readonly reply: unknown;
}

/** True when `value` has the shape of a {@link TaskReplyMessage} (its `reply` is validated apart). */
export function isTaskReplyMessage(value: unknown): value is TaskReplyMessage {
  return (
    typeof value === 'object' &&
    value !== null &&
    (value as { type?: unknown }).type === 'reply' &&
    Number.isSafeInteger((value as { id?: unknown }).id)
  );
}

/**
 * Where a task failed: loading the leaf (`import`: its module threw or has no executor class as
 * its default export; `construct`: the constructor threw or built no executor), the call
 * itself, sending back a value that cannot be cloned, or an error that escaped the call (thrown
 * from a timer or callback, or a rejection nobody handled) while the task ran. `effect`: a run
 * task's `effect()` threw or returned no Effect (the reply's `effect` holds what it returned), so
 * run() was not called.
 */
export type FailureStage = LoadStage | 'effect' | 'call' | 'reply' | 'uncaught-exception' | 'unhandled-rejection';

/** The stages of loading a leaf: importing its module, then constructing its executor. */
export type LoadStage = 'import' | 'construct';

/** True when a task failed because its thread could not load the leaf. */
export function isLoadStage(stage: FailureStage): stage is LoadStage {
  return stage === 'import' || stage === 'construct';
}

/**
 * What the worker answers for every task. The worker's handler never throws: a leaf's throw
 * comes back as `ok: false` with the error serialized, so a rejected task always means the
 * thread itself died. Values are raw: the host validates them at the boundary.
 */
export type TaskReply =
  | { readonly ok: true; readonly value: unknown; readonly threadId: number }
  | {
      readonly ok: false;
      readonly stage: FailureStage;
      readonly error: SerializedError;
      readonly threadId: number;
      /** At stage `effect`, when `effect()` returned something that is no Effect: that value, raw (absent when it threw). */
      readonly effect?: unknown;
    };

const SerializedErrorSchema = v.object({
  name: v.string(),
  message: v.string(),
  code: v.optional(v.string()),
  stack: v.optional(v.string()),
});

/**
 * Schema of {@link TaskReply}: what the host accepts as a task's answer. A thread's reply is
 * hostile input like any message (a leaf can forge one on the port its reply goes out on).
 */
export const TaskReplySchema = v.variant('ok', [
  v.object({ ok: v.literal(true), value: v.optional(v.unknown()), threadId: v.number() }),
  v.object({
    ok: v.literal(false),
    stage: v.picklist(['import', 'construct', 'effect', 'call', 'reply', 'uncaught-exception', 'unhandled-rejection']),
    error: SerializedErrorSchema,
    threadId: v.number(),
    effect: v.optional(v.unknown()),
  }),
]);

/** What a probe task answers: the executor's declaration and its verdict, unvalidated. */
export interface ProbeReport {
  readonly channels: unknown;
  readonly defaultChannel: unknown;
  readonly availability: unknown;
  /** The executor's `toolRegistry()` snapshot, when it defines one (validated on the host). */
  readonly toolRegistry?: unknown;
}

/** Host ⇒ worker on the thread's control channel. */
export type HostControlMessage =
  /** Run this task; its answer comes back as a {@link TaskReplyMessage}. */
  | { readonly type: 'task'; readonly task: WorkerTask }
  /** Abort the task's signal with this reason (the host signal's reason, encoded). */
  | { readonly type: 'abort'; readonly task: number; readonly reason: WireAbortReason };

/** Worker ⇒ host on a task's control port (and, for `process-group` outside any task, on the thread's parent port). */
export type WorkerControlMessage =
  /** The leaf is loaded and the call is about to start: the host's call timers start here. */
  | { readonly type: 'started' }
  /** A process group was started in this thread; the host reaps it. */
  | { readonly type: 'process-group'; readonly pgid: number }
  /** The thread is alive (sent every `heartbeatMs` while a task runs), with its memory. */
  | { readonly type: 'heartbeat'; readonly memory: MemoryReport }
  /** The run wrote past `outputBytes`: what crossed the cap was cut, the rest is dropped. */
  | { readonly type: 'output-limit'; readonly limitBytes: number }
  /** The run reached its `limits.sinkMessages` (limits.ts): its later sink calls are dropped. */
  | { readonly type: 'message-limit'; readonly limit: number }
  /** Console output the leaf produced instead of writing to a channel: the first bytes, and how many in all. */
  | { readonly type: 'console'; readonly bytes: number; readonly text: string }
  /** A contract violation the thread refused (a mutated ExecArgs, a worker thread of its own…), by kind. */
  | { readonly type: 'violation'; readonly kind: ThreadViolationKind; readonly message: string }
  /** (Parent port only) an error escaped the leaf while no task ran; the thread exits next. */
  | { readonly type: 'fault'; readonly error: SerializedError };

const Bytes = v.pipe(v.number(), v.finite(), v.minValue(0));

/** Schema of {@link WorkerControlMessage}: what the host accepts from a worker, nothing else. */
export const WorkerControlMessageSchema = v.variant('type', [
  v.object({ type: v.literal('started') }),
  v.object({
    type: v.literal('process-group'),
    pgid: v.pipe(v.number(), v.safeInteger(), v.minValue(2, "pgid 0 and 1 are never a run's group")),
  }),
  v.object({
    type: v.literal('heartbeat'),
    memory: v.object({ heapUsed: Bytes, external: Bytes, arrayBuffers: Bytes }),
  }),
  v.object({ type: v.literal('output-limit'), limitBytes: Bytes }),
  v.object({ type: v.literal('message-limit'), limit: Bytes }),
  v.object({ type: v.literal('console'), bytes: Bytes, text: v.string() }),
  v.object({ type: v.literal('violation'), kind: ThreadViolationKindSchema, message: v.string() }),
  v.object({ type: v.literal('fault'), error: v.object({ name: v.string(), message: v.string() }) }),
]);

/** True when `value` is a control message the worker may send. */
export function isWorkerControlMessage(value: unknown): value is WorkerControlMessage {
  return parseControlMessage(value).success;
}

const parseControlMessage = keyedParser(WorkerControlMessageSchema);

/**
 * An abort reason as it crosses the thread. Node 20's structured clone turns a DOMException
 * (the reason of a plain `abort()`) into `{}` and an Error subclass into a plain Error, so
 * both are carried explicitly; any other value is cloned as is.
 */
export type WireAbortReason =
  | { readonly kind: 'value'; readonly value: unknown }
  | { readonly kind: 'dom-exception'; readonly name: string; readonly message: string }
  | { readonly kind: 'error'; readonly error: SerializedError };

/** Encodes an abort reason for postMessage. Never throws. */
export function encodeAbortReason(reason: unknown): WireAbortReason {
  if (reason instanceof DOMException) return { kind: 'dom-exception', name: reason.name, message: reason.message };
  if (reason instanceof Error) return { kind: 'error', error: serializeError(reason) };
  try {
    return { kind: 'value', value: structuredClone(reason) };
  } catch {
    return { kind: 'error', error: serializeError(reason) };
  }
}

/** Rebuilds an abort reason on the receiving side: the same value, DOMException or named Error. */
export function decodeAbortReason(wire: WireAbortReason): unknown {
  if (wire.kind === 'dom-exception') return new DOMException(wire.message, wire.name);
  if (wire.kind === 'error') return deserializeError(wire.error);
  return wire.value;
}

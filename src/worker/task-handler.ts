import { threadId, type MessagePort } from 'node:worker_threads';
import type { ExecArgs } from '../contracts/exec-args.js';
import { DEFAULT_LIMITS, type Limits, type MachineLimit } from '../contracts/limits.js';
import * as v from 'valibot';
import { EffectSchema, type Effect } from '../contracts/effect.js';
import {
  EFFECT_CODE,
  EFFECT_RETURNED,
  EFFECTS,
  type ProbeReport,
  type RunRequest,
  type TaskReply,
  type ThreadOpen,
  type WorkerBoot,
  type WorkerTask,
} from '../contracts/protocol.js';
import { serializeError } from '../contracts/serialized-error.js';
import { guardArgs } from './args-guard.js';
import type { BaseExecutor } from '../author/base-executor.js';
import { captureConsole, type ConsoleCapture } from './console-capture.js';
import { listenForTasks, openControlLink, replyToHost, reportToHost, type ControlLink } from './control-link.js';
import { countPendingTimers, drainQueuedCallbacks, guardEscapes, type TaskEscapes } from './escape-guard.js';
import { loadExecutor, type LoadedExecutor } from './load-executor.js';
import { capEmits, capWrites } from './output-cap.js';
import { watchEnvChanges, type ThreadEnv } from './run-env.js';
import { proxySinks } from './sink-proxy.js';
import { SinkRingWriter } from './sink-ring-writer.js';
import { RING_DOORBELL } from '../contracts/sink-ring.js';
import { installThreadGuards } from './thread-guards.js';
import type { Report } from './guard-kit.js';
import { onProcessGroup } from '../author/process-groups.js';
import { newRunMarker } from '../runtime/run-marker.js';
import { MAX_NESTING, nestsDeeperThan } from '../runtime/value-depth.js';
import { watchWasmMemories } from './wasm-memories.js';

/** What one task needs besides its message: the thread's limits, env and guards. */
interface ThreadState {
  /** The host's limits (the memory limits of the host process and its engine are not the thread's to hold). */
  readonly limits: Omit<Limits, MachineLimit>;
  readonly env: ThreadEnv;
  readonly console: ConsoleCapture;
}

/**
 * Builds the handler of one executor thread, which piscina calls once with the thread's
 * channels ({@link ThreadOpen}); every task after that comes on the control channel and is
 * answered there. The thread's guards (console capture, escape handling, the env watch, the
 * WebAssembly memory census, and thread-guards.ts: children, signals, threads, process knobs,
 * bindings) are installed before the leaf starts loading, so they hold for its import too. The
 * leaf starts loading at once (so a warm spare is warm) and every task awaits it. A task never
 * throws: a leaf failure is answered as `ok: false`, so a task left unanswered on the host
 * always means the thread died.
 */
export function createTaskHandler(boot: WorkerBoot): (open: ThreadOpen<MessagePort>) => Promise<void> {
  const limits = boot.limits ?? DEFAULT_LIMITS;
  const violate: Report = (kind, message) => reportToHost({ type: 'violation', kind, message });
  const own = installThreadGuards({
    threadMarker: boot.marker ?? newRunMarker(),
    report: violate,
    reportGroup: (pgid) => reportToHost({ type: 'process-group', pgid }),
  });
  // A group the leaf reports itself is the host's to reap; it is the leaf's to signal only when provably its own.
  onProcessGroup((pgid) => own.claim(pgid));
  const thread: ThreadState = {
    limits,
    env: watchEnvChanges(boot.ownedEnvKeys),
    console: captureConsole(limits.consoleBytes),
  };
  const escapes = guardEscapes((escape) =>
    reportToHost({
      type: 'fault',
      error: { name: escape.error.name, message: `${escape.kind}: ${escape.error.message}` },
    }),
  );
  watchWasmMemories();
  const loading = loadExecutor(boot);
  // A boot probe of another tag of this package (the host probes a package's tags in one thread).
  const others = new Map<string, Promise<LoadedExecutor>>();
  const load = (task: WorkerTask): Promise<LoadedExecutor> => {
    const as = task.kind === 'probe' ? task.as : undefined;
    if (as === undefined || as.tag === boot.tag) return loading;
    let other = others.get(as.tag);
    if (other === undefined) {
      other = loading.then(() => loadExecutor({ ...boot, tag: as.tag, glyph: as.glyph }));
      others.set(as.tag, other);
    }
    return other;
  };
  const handle = async (task: WorkerTask, channels: ThreadChannels, marks: Int32Array): Promise<TaskReply> => {
    const control = openControlLink(channels.control, limits.heartbeatMs, task.id);
    const watch = escapes.begin();
    own.beginTask(task.marker);
    try {
      const loaded = await load(task);
      if (!loaded.ok) return { ok: false, stage: loaded.stage, error: loaded.error, threadId };
      if (task.announce !== false) control.started();
      // A run that asked for its effect: effect() first, and no run() unless it returned an Effect.
      // A warm-up takes the same steps with its own executor, and marks nothing: it is no run.
      if ((task.kind === 'run' && task.effect === true) || task.kind === 'warm') {
        const called = await callEffect(task.kind === 'run' ? loaded.executor : WARM_UP, task.request.target);
        if (called.failure !== undefined) return escapeReply(watch) ?? { ...called.failure, threadId };
        if (task.kind === 'run') {
          // The Effect before the task's id: the host reads the id first.
          Atomics.store(marks, EFFECT_CODE, EFFECTS.indexOf(called.effect) + 1);
          Atomics.store(marks, EFFECT_RETURNED, task.id);
        }
      }
      let value: unknown;
      try {
        value = await perform(task, loaded.executor, channels, control, thread, watch);
      } catch (error) {
        return escapeReply(watch) ?? { ok: false, stage: 'call', error: serializeError(error), threadId };
      }
      return escapeReply(watch) ?? tooDeep(value) ?? { ok: true, value, threadId };
    } finally {
      watch.end();
      own.endTask();
      const printed = thread.console.take();
      if (printed) control.send({ type: 'console', ...printed });
      control.close();
    }
  };
  // piscina's one task hands over the channels; every task after it comes on the control channel.
  let opened = false;
  return async (open) => {
    if (opened) throw new Error('@plurnk/plurnk-execs: a thread is opened once');
    opened = true;
    // A host that sends no marks never asks for an effect in a run; a buffer of the thread's own keeps the code plain.
    const marks = new Int32Array(open.marks ?? new SharedArrayBuffer(8));
    const channels: ThreadChannels = {
      control: open.control,
      sinks: open.sinks,
      ring: SinkRingWriter.open(open.ring, () => open.sinks.postMessage(RING_DOORBELL)),
    };
    listenForTasks(open.control, async (task) =>
      replyToHost(open.control, task.id, await handle(task, channels, marks)),
    );
  };
}

/** A thread's channels to the host, for its life: control, sinks, and the sink ring when the host gave one. */
interface ThreadChannels {
  readonly control: MessagePort;
  readonly sinks: MessagePort;
  readonly ring: SinkRingWriter | undefined;
}

function perform(
  task: WorkerTask,
  executor: BaseExecutor,
  channels: ThreadChannels,
  control: ControlLink,
  thread: ThreadState,
  watch: TaskEscapes,
): Promise<unknown> | unknown {
  switch (task.kind) {
    case 'probe':
      return probe(executor, control);
    case 'effect':
      return executor.effect(task.target);
    case 'run':
      return run(executor, task.request, channels, control, thread, watch);
    case 'warm':
      return run(WARM_UP, task.request, channels, control, thread, watch);
  }
}

/**
 * What a `warm` task runs instead of the leaf: the same path as a run (control link, sinks,
 * env, flush, reply) through code of this package only, so a leaf never sees it.
 */
const WARM_UP = {
  effect: () => 'pure',
  async run(args: ExecArgs) {
    args.write('warm', '');
    return { status: 200 };
  },
} as unknown as BaseExecutor;

/** Reads the declaration, then probes under the control signal, aborted afterwards so the probe's work is reaped. */
async function probe(executor: BaseExecutor, control: ControlLink): Promise<ProbeReport> {
  const channels = executor.channels;
  const defaultChannel = executor.defaultChannel;
  // The snapshot is synchronous and side-effect-free (§executor-tool-registry): read it with the declaration.
  const toolRegistry = typeof executor.toolRegistry === 'function' ? executor.toolRegistry() : undefined;
  try {
    const availability = await executor.probe(control.signal);
    return toolRegistry === undefined
      ? { channels, defaultChannel, availability }
      : { channels, defaultChannel, availability, toolRegistry };
  } finally {
    control.abortLocally();
  }
}

/**
 * Runs one EXEC with proxied sinks, read-only args and capped output. An error escaping the
 * leaf ends the wait for its result at once. Callbacks the leaf queued are drained before the
 * sinks settle (a flush barrier past a few messages), which runs whatever happened: output
 * written before a fault is kept, and nothing the leaf wrote may arrive after its result.
 */
async function run(
  executor: BaseExecutor,
  request: RunRequest,
  { sinks: port, ring }: ThreadChannels,
  control: ControlLink,
  thread: ThreadState,
  watch: TaskEscapes,
): Promise<unknown> {
  const proxied = proxySinks(port, {
    ring,
    hasEntry: request.hasEntry,
    budget: thread.limits.sinkMessages,
    onOverBudget: () => control.send({ type: 'message-limit', limit: thread.limits.sinkMessages }),
  });
  const restoreEnv = thread.env.applyRun(request.env);
  const { outputBytes } = thread.limits;
  const args: ExecArgs = {
    runtime: request.runtime,
    body: request.body,
    // The early-1.x name of the body, for leaves that still read it.
    command: request.body,
    cwd: request.cwd,
    target: request.target,
    ...(request.env === undefined ? {} : { env: { ...request.env } }),
    signal: control.signal,
    ...proxied.sinks,
    write: capWrites(proxied.sinks.write, outputBytes, () =>
      control.send({ type: 'output-limit', limitBytes: outputBytes }),
    ),
    emit: capEmits(proxied.sinks.emit, thread.limits.noticeBytes, (message) =>
      control.send({ type: 'violation', kind: 'notice-limit', message }),
    ),
  };
  const timersAtStart = countPendingTimers();
  try {
    return await Promise.race([
      executor.run(guardArgs(args, (message) => control.send({ type: 'violation', kind: 'mutated-args', message }))),
      watch.escaped,
    ]);
  } finally {
    await drainQueuedCallbacks(timersAtStart);
    restoreEnv();
    await proxied.settle();
    proxied.close();
  }
}

/**
 * A run task's `effect(target)`, awaited as `host.effect()` awaits it: its Effect, or the failed
 * reply (stage `effect`) that ends the task without a run — it threw, or returned no Effect
 * (kept raw in `effect` for the host to name).
 */
async function callEffect(
  executor: BaseExecutor,
  target: string | null,
): Promise<{ effect: Effect; failure?: undefined } | { failure: Omit<Extract<TaskReply, { ok: false }>, 'threadId'> }> {
  let value: unknown;
  try {
    value = await executor.effect(target);
  } catch (error) {
    return { failure: { ok: false, stage: 'effect', error: serializeError(error) } };
  }
  if (v.is(EffectSchema, value)) return { effect: value };
  const error = { name: 'TypeError', message: 'effect() returned no Effect' };
  return { failure: { ok: false, stage: 'effect', error, effect: value } };
}

/** An `ok: false` reply for the first error that escaped the leaf during the task, if one did. */
function escapeReply(watch: TaskEscapes): TaskReply | undefined {
  const escape = watch.first();
  return escape === undefined ? undefined : { ok: false, stage: escape.kind, error: escape.error, threadId };
}

/**
 * An `ok: false` reply when `value` nests deeper than the host's main thread can deserialize.
 * A value that cannot be cloned at all (a function, a class with private state…) fails the
 * reply's own postMessage and is answered `ok: false` there (control-link.ts).
 */
function tooDeep(value: unknown): TaskReply | undefined {
  if (!nestsDeeperThan(value, MAX_NESTING)) return undefined;
  const message = `the value nests more than ${MAX_NESTING} levels deep; the host's main thread cannot read it`;
  return { ok: false, stage: 'reply', error: { name: 'RangeError', message }, threadId };
}

import { threadId, type MessagePort } from 'node:worker_threads';
import type { ExecArgs } from '../contracts/exec-args.js';
import type { ProbeReport, RunRequest, TaskReply, WorkerBoot, WorkerTask } from '../contracts/protocol.js';
import { serializeError } from '../contracts/serialized-error.js';
import type { BaseExecutor } from './base-executor.js';
import { openControlLink, type ControlLink } from './control-link.js';
import { loadExecutor } from './load-executor.js';
import { applyRunEnv } from './run-env.js';
import { proxySinks } from './sink-proxy.js';

/**
 * Builds the handler of one executor thread. The leaf starts loading at once (so a warm spare
 * is warm); every task awaits it. The handler never throws: a leaf failure is answered as
 * `ok: false`, so a rejected task on the host always means the thread died.
 */
export function createTaskHandler(boot: WorkerBoot): (task: WorkerTask<MessagePort>) => Promise<TaskReply> {
  const loading = loadExecutor(boot);
  const baseline: Readonly<Record<string, string | undefined>> = { ...process.env };
  return async (task) => {
    const control = openControlLink(task.control);
    try {
      const loaded = await loading;
      if (!loaded.ok) return { ok: false, stage: 'load', error: loaded.error, threadId };
      if (task.announce !== false) control.started();
      let value: unknown;
      try {
        value = await perform(task, loaded.executor, control, baseline);
      } catch (error) {
        return { ok: false, stage: 'call', error: serializeError(error), threadId };
      }
      return cloneable(value) ?? { ok: true, value, threadId };
    } finally {
      // A probe's latency counts from `started`, so the host must have handled it before the reply.
      await control.close(task.kind === 'probe');
    }
  };
}

function perform(task: WorkerTask<MessagePort>, executor: BaseExecutor, control: ControlLink, baseline: Readonly<Record<string, string | undefined>>): Promise<unknown> | unknown {
  switch (task.kind) {
    case 'probe':
      return probe(executor, control);
    case 'effect':
      return executor.effect(task.target);
    case 'run':
      return run(executor, task.request, task.sinks, control, baseline);
    case 'warm':
      return run(WARM_UP, WARM_UP_REQUEST, task.sinks, control, baseline);
  }
}

/**
 * What a `warm` task runs instead of the leaf: the same path as a run (control link, sinks,
 * env, flush, reply) through code of this package only, so a leaf never sees it.
 */
const WARM_UP = {
  async run(args: ExecArgs) {
    args.write('warm', '');
    return { status: 200 };
  },
} as unknown as BaseExecutor;
const WARM_UP_REQUEST: RunRequest = { runtime: 'warm', body: '', cwd: null, target: null, hasEntry: false };

/** Reads the declaration, then probes under the control signal, aborted afterwards so the probe's work is reaped. */
async function probe(executor: BaseExecutor, control: ControlLink): Promise<ProbeReport> {
  const channels = executor.channels;
  const defaultChannel = executor.defaultChannel;
  try {
    const availability = await executor.probe(control.signal);
    return { channels, defaultChannel, availability };
  } finally {
    control.abortLocally();
  }
}

/**
 * Runs one EXEC with proxied sinks. The flush barrier runs even when `run()` throws: output
 * written before a fault is kept, and nothing the leaf wrote may arrive after its result.
 */
async function run(executor: BaseExecutor, request: RunRequest, port: MessagePort, control: ControlLink, baseline: Readonly<Record<string, string | undefined>>): Promise<unknown> {
  const proxied = proxySinks(port, request.hasEntry);
  const restoreEnv = applyRunEnv(request.env, baseline);
  const args: ExecArgs = {
    runtime: request.runtime,
    body: request.body,
    cwd: request.cwd,
    target: request.target,
    ...(request.env === undefined ? {} : { env: { ...request.env } }),
    signal: control.signal,
    ...proxied.sinks,
  };
  try {
    return await executor.run(args);
  } finally {
    restoreEnv();
    await proxied.flush();
    proxied.close();
  }
}

/** An `ok: false` reply when `value` cannot cross the thread (a function, a class with private state…). */
function cloneable(value: unknown): TaskReply | undefined {
  try {
    structuredClone(value);
    return undefined;
  } catch (error) {
    return { ok: false, stage: 'reply', error: serializeError(error), threadId };
  }
}

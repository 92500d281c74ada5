import { Socket } from 'node:net';
import { PlurnkExecsError } from '../contracts/errors.js';
import { decodeAbortReason, type WireAbortReason } from '../contracts/protocol.js';
import { serializeError } from '../contracts/serialized-error.js';
import type { Discovery } from '../contracts/registry.js';
import type { ParsedExecRequest } from '../model/exec-request.js';
import type { Availability, EmbeddingSinks } from '../model/host-types.js';
import type { RunTrace, Tier } from '../model/tier.js';
import { bootThreadTier, ENGINE_MAIN_THREAD, liveOwners, setRingPacing } from '../thread-host/index.js';
import { ENGINE_CHANNEL_FD, SERVICE_FRAME_BYTES } from './engine-limits.js';
import { forwardEvents } from './event-forwarding.js';
import type { EngineMessage, EngineState, ServiceMessage, WireExecRequest } from './engine-protocol.js';
import { openFrameChannel } from './frame-channel.js';
import { underNamespaceInit } from './namespace-init.js';
import { sweepNamespace } from './namespace-sweep.js';
import { measureSandbox } from './sandbox/sandbox-facts.js';
import { AckBatch } from './ack-batch.js';
import { RunControllers } from './run-controllers.js';
import { SinkBatch } from './sink-batch.js';
import { stripForwardedText } from './forwarded-text.js';
import { trackDegradation, trackStateChanges } from './state-changes.js';

// The engine process: the thread host, booted here instead of in the embedding service. It
// speaks only over the framed pipe on fd 3; its stdout and stderr are read (bounded) by the
// service; when the service goes away the pipe closes and the engine exits, and with it its
// namespace's init (namespace-init.ts) and every process a leaf left behind.

// This main thread serves one package's runs: a flood is read in larger shares, at a bounded rate (ring-pace.ts).
setRingPacing(ENGINE_MAIN_THREAD);
const socket = new Socket({ fd: ENGINE_CHANNEL_FD, readable: true, writable: true });
const channel = openFrameChannel(
  socket,
  SERVICE_FRAME_BYTES,
  (frame) => void onMessage(frame as ServiceMessage),
  () => process.exit(70),
);
socket.on('close', () => process.exit(0));
/** The exec and effect frames read since the last heartbeat, which acknowledges them (ack-batch.ts). */
const acks = new AckBatch();
/** Forwarded sink calls, one frame a turn (sink-batch.ts). */
const batch = new SinkBatch((frame) => void channel.send(frame));
/**
 * Every frame but a sink batch: the batch queued so far goes first, so the wire keeps the
 * engine's order, in the same write (a run's last calls and its outcome wake the service once).
 */
function send(message: EngineMessage): boolean {
  const queued = batch.take();
  return queued === undefined ? channel.send(message) : channel.send(queued, message);
}
// Measured before any leaf is loaded, so no leaf can have changed it.
const permissionModel = 'permission' in process;
/** Its namespace's init, found at boot before any leaf loads: only an engine under one sweeps its namespace. */
let init: number | undefined;

// The thread tier, driven directly: the service's front door already validated, resolved and
// counted every call it sends, and refuses them once the host closes.
let tier: Tier | undefined;
/** Aborted by the service's `close`: every run in flight in the thread tier settles 499. */
const closing = new AbortController();
/** Runs and effect calls in flight, which the thread tier's close waits for. */
const inFlight = new Set<Promise<void>>();
const runs = new Map<number, { controller: AbortController }>();
const controllers = new RunControllers();
const asks = new Map<number, { resolve(value: unknown): void; reject(error: Error): void }>();
let nextAsk = 0;
/** The engine's state when it differs from what the service last heard (state-changes.ts). */
const changedState = trackStateChanges();
/** The thread tier's events the service listens to, forwarded (event-forwarding.ts). */
const forwarding = forwardEvents(send);
/** Whether the breaker spoke since a heartbeat or an outcome last asked (state-changes.ts): only then is the state built again. */
const degradationMoved = trackDegradation();

async function onMessage(message: ServiceMessage): Promise<void> {
  switch (message.t) {
    case 'boot':
      return boot(message);
    case 'exec':
      acks.add(message.id);
      return track(exec(message.id, message.request, message.aborted));
    case 'abort':
      return runs.get(message.id)?.controller.abort(decodeAbortReason(message.reason));
    case 'effect':
      acks.add(message.id);
      return track(effect(message.id, message.tag, message.target));
    case 'sink-reply': {
      const ask = asks.get(message.call);
      asks.delete(message.call);
      if (message.ok) ask?.resolve(message.value);
      else ask?.reject(new Error(message.error ?? 'the service sink failed'));
      return;
    }
    case 'observe':
      return forwarding.want(message.events);
    case 'stats':
      // Before boot there are no threads to tell of: an empty answer, which the service reads as such.
      return void send({ t: 'stats', id: message.id, tags: tier === undefined ? {} : (await tier.stats()).tags });
    case 'close':
      closing.abort(new DOMException('the host closed', 'AbortError'));
      await tier?.close(Promise.allSettled([...inFlight]).then(() => {})).catch(() => {});
      send({ t: 'closed' });
      socket.end(() => process.exit(0));
      return;
  }
}

async function boot(message: Extract<ServiceMessage, { t: 'boot' }>): Promise<void> {
  init = underNamespaceInit(message.servicePidNamespace);
  send({ t: 'hello', pid: process.pid, pidNamespace: init !== undefined, permissionModel, sandbox: measureSandbox() });
  // The service's watchdog: a main thread that stops sending these is killed and replaced.
  // It acknowledges the exec and effect frames read since the last one, and carries the engine's
  // state when that changed since the engine last sent it (the breaker spoke while nothing ran):
  // the service's view lags by one heartbeat at most.
  setInterval(() => {
    const read = acks.take();
    const state = tier !== undefined && degradationMoved(tier) ? changedState(engineState(tier)) : undefined;
    send({ t: 'heartbeat', ...(read === undefined ? {} : { acks: read }), ...(state === undefined ? {} : { state }) });
  }, message.heartbeatMs).unref();
  try {
    const options = {
      ...message.options,
      onProbe: (tag: string, availability: Availability) => void send({ t: 'probe', tag, availability }),
    };
    tier = await bootThreadTier(message.discovery as Discovery, options, closing.signal);
    const state = engineState(tier);
    // Recorded as sent, so the first outcome repeats it only if it changed since.
    changedState(state);
    send({ t: 'booted', state });
  } catch (error) {
    send({ t: 'boot-failed', error: wireError(error) });
  }
  sweep();
}

async function exec(id: number, request: WireExecRequest, aborted: WireAbortReason | undefined): Promise<void> {
  const controller = controllers.take();
  if (aborted !== undefined) controller.abort(decodeAbortReason(aborted));
  runs.set(id, { controller });
  const { interact, entry } = request;
  const sinks: EmbeddingSinks = {
    write: (channelName, chunk, mimetype) =>
      batch.add(id, mimetype === undefined ? ['write', channelName, chunk] : ['write', channelName, chunk, mimetype]),
    setState: (channelName, state) => batch.add(id, ['setState', channelName, state]),
    emit: (notice) => batch.add(id, ['emit', notice]),
    ...(interact ? { interact: (req) => ask(id, 'interact', [req]) as never } : {}),
    ...(entry ? { entry: (path, content, opts) => ask(id, 'entry', [path, content, opts]) as never } : {}),
  };
  try {
    if (tier === undefined || closing.signal.aborted) throw notOpen();
    const parsed = fromWire(request, controller.signal, sinks);
    const trace: RunTrace = {};
    const { outcome, lengths } = stripForwardedText(await tier.run(parsed, trace));
    // Only the breaker moves the state after boot: built and compared only when it spoke.
    const state = degradationMoved(tier) ? changedState(engineState(tier)) : undefined;
    const queued = trace.queueMs === undefined ? {} : { queueMs: trace.queueMs };
    send({ t: 'outcome', id, outcome, lengths, ...queued, ...(state === undefined ? {} : { state }) });
  } catch (error) {
    send({ t: 'exec-error', id, error: wireError(error) });
  } finally {
    runs.delete(id);
    controllers.give(controller);
    sweep();
  }
}

/**
 * The run as the thread tier takes it. The service's front door parsed and normalized it
 * (model/exec-request.ts) before it crossed, and what the engine reads from its channel only the
 * service can have written (it alone holds the other end), so it is not parsed a second time
 * here: that was ~5 µs of each EXEC's path.
 */
function fromWire(request: WireExecRequest, signal: AbortSignal, sinks: EmbeddingSinks): ParsedExecRequest {
  return {
    runtime: request.runtime,
    body: request.body,
    target: request.target ?? null,
    cwd: request.cwd ?? null,
    env: request.env,
    signal,
    timeoutMs: request.timeoutMs,
    address: request.address,
    sinks,
    effect: request.effect,
  };
}

async function effect(id: number, tag: string, target: string | null): Promise<void> {
  try {
    if (tier === undefined || closing.signal.aborted) throw notOpen();
    send({ t: 'effect', id, effect: await tier.effect(tag, target) });
  } catch (error) {
    send({ t: 'effect-error', id, error: wireError(error) });
  }
}

/** One interact or entry call, answered by the service's own sink. */
function ask(id: number, name: 'interact' | 'entry', args: unknown[]): Promise<unknown> {
  const call = nextAsk++;
  return new Promise((resolve, reject) => {
    asks.set(call, { resolve, reject });
    if (!send({ t: 'sink-request', id, call, name, args })) {
      asks.delete(call);
      reject(new Error('the service is gone'));
    }
  });
}

/** How long after a run's end its namespace sweep waits, gathering the ends of the runs that follow. */
const SWEEP_DELAY_MS = 50;
let sweepTimer: NodeJS.Timeout | undefined;

/**
 * Soon after each run's end (and the boot's), whatever in the namespace belongs to no live run,
 * call or thread dies — a leftover daemon of this run or an earlier one — while other runs go on.
 * Off the outcome's path and once for the runs that ended within {@link SWEEP_DELAY_MS}: a
 * `/proc` sweep at every run's end was the largest part of the engine's own time per no-op EXEC.
 */
function sweep(): void {
  const namespaceInit = init;
  if (namespaceInit === undefined) return;
  sweepTimer ??= setTimeout(() => {
    sweepTimer = undefined;
    sweepNamespace(liveOwners, namespaceInit);
  }, SWEEP_DELAY_MS);
}

/** Keeps `work` in the set the thread tier's close waits for until it settles. */
function track(work: Promise<void>): Promise<void> {
  inFlight.add(work);
  return work.finally(() => inFlight.delete(work));
}

function notOpen(): PlurnkExecsError {
  return new PlurnkExecsError(
    'host-closed',
    tier === undefined ? 'the engine has not booted' : 'the engine is closing',
  );
}

function engineState(booted: Tier): EngineState {
  const availability: EngineState['availability'] = {};
  const toolRegistries: EngineState['toolRegistries'] = {};
  for (const tag of booted.discovery.registry.keys()) {
    const verdict = booted.availability(tag);
    if (verdict !== undefined) availability[tag] = verdict;
    const tools = booted.toolRegistry(tag);
    if (tools !== undefined) toolRegistries[tag] = tools as EngineState['toolRegistries'][string];
  }
  return { availability, available: booted.availableRuntimes(), toolRegistries };
}

function wireError(error: unknown): { name: string; message: string; code?: string } {
  const { name, message, code } = serializeError(error);
  return code === undefined ? { name, message } : { name, message, code };
}

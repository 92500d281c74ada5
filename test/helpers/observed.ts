import { subscribe, tracingChannel, unsubscribe } from 'node:diagnostics_channel';
import { afterAll, afterEach, beforeEach, expect } from 'vitest';
import { OBSERVE_CHANNELS, type EffectTrace, type EventName, type ExecTrace } from '../../src/host/index.js';
import { watchHostErrors } from './zoo.js';

/** One thing a channel published, as a subscriber saw it (a copy, taken then). */
export interface Seen {
  channel: string;
  payload: unknown;
}

/** What {@link observeAll} keeps. */
export interface Observed {
  seen: Seen[];
  contexts: object[];
  /** The payloads published on one plain channel, in order. */
  of<N extends EventName>(name: N): unknown[];
  dispose(): void;
}

/**
 * For a describe block: each test observes every channel afresh ({@link observeAll}) and must
 * end with no error on the host process's last-resort handlers. Returns what the running test
 * has observed so far.
 */
export function observeEachTest(): () => Observed {
  const hostErrors = watchHostErrors();
  let observed: Observed | undefined;
  beforeEach(() => void (observed = observeAll()));
  afterEach(() => {
    observed?.dispose();
    expect(hostErrors.errors).toEqual([]);
  });
  afterAll(() => hostErrors.dispose());
  return () => observed!;
}

/**
 * Subscribes to every channel the host publishes on (docs/host.md "Observing the host") and
 * keeps what each published, in order; a tracing event is recorded as `exec:start`, … with a
 * copy of the context as it was then, and `contexts` keeps the context objects themselves.
 */
export function observeAll(): Observed {
  const seen: Seen[] = [];
  const contexts: object[] = [];
  const plain = Object.values(OBSERVE_CHANNELS).filter(
    (name) => name !== OBSERVE_CHANNELS.exec && name !== OBSERVE_CHANNELS.effect,
  );
  const handlers = plain.map((name) => {
    const handler = (payload: unknown) => void seen.push({ channel: name, payload: structuredClone(payload) });
    subscribe(name, handler);
    return [name, handler] as const;
  });
  const traced = (['exec', 'effect'] as const).map((kind) => {
    const tracing = tracingChannel<ExecTrace | EffectTrace>(OBSERVE_CHANNELS[kind]);
    const record = (event: string) => (context: ExecTrace | EffectTrace) => {
      if (!contexts.includes(context)) contexts.push(context);
      seen.push({ channel: `${kind}:${event}`, payload: structuredClone(context) });
    };
    const subscribers = {
      start: record('start'),
      end: record('end'),
      asyncStart: record('asyncStart'),
      asyncEnd: record('asyncEnd'),
      error: record('error'),
    };
    tracing.subscribe(subscribers);
    return () => tracing.unsubscribe(subscribers);
  });
  return {
    seen,
    contexts,
    of: (name) => seen.filter((entry) => entry.channel === name).map((entry) => entry.payload),
    dispose() {
      for (const [name, handler] of handlers) unsubscribe(name, handler);
      for (const stop of traced) stop();
    },
  };
}

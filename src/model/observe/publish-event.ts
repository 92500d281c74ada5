import { channel, tracingChannel, type Channel, type TracingChannel } from 'node:diagnostics_channel';
import { clipText } from '../../runtime/describe-leaf-value.js';
import {
  EVENT_TEXT_CHARS,
  OBSERVE_CHANNELS,
  type EffectTrace,
  type EventName,
  type ExecTrace,
  type ObserveEvents,
} from './observe-events.js';

// The host's channels on `node:diagnostics_channel`, made once per process (a module-level
// reference keeps each alive however its subscribers come and go), and publishing on them:
// nothing is built or published while a channel has no subscriber, so observing costs a
// property read when no one listens.

const PLAIN = new Map<EventName, Channel>(
  (Object.values(OBSERVE_CHANNELS) as string[])
    .filter((name): name is EventName => name !== OBSERVE_CHANNELS.exec && name !== OBSERVE_CHANNELS.effect)
    .map((name) => [name, channel(name)]),
);

/** The `exec` tracing channel (`tracing:plurnk-execs:exec:*`). */
export const EXEC_TRACING: TracingChannel<ExecTrace, ExecTrace> = tracingChannel(OBSERVE_CHANNELS.exec);
/** The `effect` tracing channel (`tracing:plurnk-execs:effect:*`). */
export const EFFECT_TRACING: TracingChannel<EffectTrace, EffectTrace> = tracingChannel(OBSERVE_CHANNELS.effect);

/** True when someone subscribed to the plain channel `name`. */
export function isObserved(name: EventName): boolean {
  return PLAIN.get(name)!.hasSubscribers;
}

/**
 * Publishes what `build` makes on `name`, only when someone subscribed (so `build` costs nothing
 * otherwise). A subscriber's throw is Node's to report (on the next tick), not the host's.
 */
export function publishEvent<N extends EventName>(name: N, build: () => ObserveEvents[N]): void {
  const target = PLAIN.get(name)!;
  if (target.hasSubscribers) target.publish(build());
}

/**
 * True when any of a tracing channel's five channels has a subscriber (`TracingChannel.hasSubscribers`
 * came with Node 20.13; this reads the five, as it does).
 */
export function isTraced<C extends object>(tracing: TracingChannel<C, C>): boolean {
  return (
    tracing.start.hasSubscribers ||
    tracing.end.hasSubscribers ||
    tracing.asyncStart.hasSubscribers ||
    tracing.asyncEnd.hasSubscribers ||
    tracing.error.hasSubscribers
  );
}

/** Leaf-supplied text as an event carries it: cut to {@link EVENT_TEXT_CHARS}. */
export function eventText(text: string): string {
  return clipText(text, EVENT_TEXT_CHARS);
}

import { subscribe, unsubscribe } from 'node:diagnostics_channel';
import type { EngineMessage } from './engine-protocol.js';
import { FORWARDED_EVENTS, type EventFrame, type ForwardedEvent } from './observe-wire.js';

/**
 * Inside the engine: forwards to the service the events of the engine's thread tier that the
 * service listens to (engine-observe.ts tells which) — and only those: a channel nobody asked
 * for has no subscriber here either, so the thread tier publishes nothing on it.
 */
export function forwardEvents(send: (message: EngineMessage) => void): { want(events: readonly string[]): void } {
  const forwarding = new Map<ForwardedEvent, (payload: unknown) => void>();
  return {
    want(events) {
      for (const name of FORWARDED_EVENTS) {
        const wanted = events.includes(name);
        const forwarder = forwarding.get(name);
        if (wanted && forwarder === undefined) {
          const forward = (payload: unknown) => send({ t: 'event', event: { name, payload } as EventFrame['event'] });
          forwarding.set(name, forward);
          subscribe(name, forward);
        } else if (!wanted && forwarder !== undefined) {
          forwarding.delete(name);
          unsubscribe(name, forwarder);
        }
      }
    },
  };
}

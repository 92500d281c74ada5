import type { Tier } from '../model/tier.js';
import type { EngineState } from './engine-protocol.js';

/**
 * The engine's state to send with an outcome, or undefined when it is what the service last
 * heard: every tag's availability and tool registry went with every EXEC's outcome, serialized
 * by the engine and validated by the service, though it changes only when a probe or the
 * breaker speaks. A state whose cool-downs moved on differs, and is sent.
 */
export function trackStateChanges(): (state: EngineState) => EngineState | undefined {
  let sent: string | undefined;
  return (state) => {
    const text = JSON.stringify(state);
    if (text === sent) return undefined;
    sent = text;
    return state;
  };
}

/**
 * Whether any tag's breaker verdict moved (degraded or not, and after how many crashes) since the
 * last call: the only part of an engine's state that changes after its boot, read at every
 * heartbeat without building and serializing the whole state (which cost an idle engine
 * ~1 % of a core at one heartbeat per 250 ms).
 */
export function trackDegradation(): (booted: Tier) => boolean {
  let seen = '';
  return (booted) => {
    let key = '';
    for (const tag of booted.discovery.registry.keys()) {
      const degraded = booted.availability(tag)?.degraded;
      if (degraded !== undefined) key += `${tag}\n${degraded.crashes}\n${degraded.reason}\n`;
    }
    if (key === seen) return false;
    seen = key;
    return true;
  };
}

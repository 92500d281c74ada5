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

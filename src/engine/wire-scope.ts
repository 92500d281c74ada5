import type { EngineMessage, EngineState } from './engine-protocol.js';

/** What one engine was given: the only tags, runs and calls a frame from it may concern. */
export interface WireScope {
  /** The tags of its packages. */
  readonly tags: ReadonlySet<string>;
  /** The runs sent to it that have not been answered. */
  readonly runs: { has(id: number): boolean };
  /** The effect calls sent to it that have not been answered. */
  readonly effects: { has(id: number): boolean };
}

/**
 * Why a frame from a booted engine, already valid by its schema, concerns something that engine
 * was never given — or undefined when it concerns only its own. A frame that names a run or call
 * not in flight there (another engine's, one that ended: a second outcome, an effect reply no
 * call awaits), a state naming a tag of another package, or a boot frame after the boot, was
 * forged by a leaf of that engine (any of its threads can write its channel's fd): its engine is
 * killed as corrupt, and nothing of the frame is applied.
 */
export function outOfScope(message: EngineMessage, scope: WireScope): string | undefined {
  switch (message.t) {
    case 'sinks': {
      const stray = message.calls.find(([id]) => !scope.runs.has(id));
      return stray === undefined ? undefined : notInFlight('sink calls of run', stray[0]);
    }
    case 'sink-request':
    case 'exec-error':
      return scope.runs.has(message.id) ? undefined : notInFlight(`a ${message.t} of run`, message.id);
    case 'outcome':
      if (!scope.runs.has(message.id)) return notInFlight('an outcome of run', message.id);
      return message.state === undefined ? undefined : stateOutOfScope(message.state, scope.tags);
    case 'heartbeat':
      return message.state === undefined ? undefined : stateOutOfScope(message.state, scope.tags);
    case 'effect':
    case 'effect-error':
      return scope.effects.has(message.id) ? undefined : notInFlight(`an ${message.t} reply to call`, message.id);
    case 'hello':
    case 'probe':
    case 'booted':
    case 'boot-failed':
      return `a ${message.t} frame after it booted`;
    default:
      return undefined;
  }
}

/** Why a state from an engine names a tag it does not hold, or undefined when every tag it names is its own. */
export function stateOutOfScope(state: EngineState, tags: ReadonlySet<string>): string | undefined {
  const named = [...Object.keys(state.availability), ...state.available, ...Object.keys(state.toolRegistries)];
  const foreign = named.find((tag) => !tags.has(tag));
  return foreign === undefined
    ? undefined
    : `a state naming tag ${JSON.stringify(foreign)}, which is not one of its packages'`;
}

function notInFlight(what: string, id: number): string {
  return `${what} ${id}, which is not in flight in this engine (another engine's, never sent, or already answered)`;
}

import { describe, expect, it } from 'vitest';
import type { EngineState } from '../../../src/engine/engine-protocol.js';
import { trackStateChanges } from '../../../src/engine/state-changes.js';

const state = (available: boolean, retryInMs?: number): EngineState =>
  ({
    availability: {
      sh: {
        available,
        ...(retryInMs === undefined ? {} : { degraded: { reason: 'boom', crashes: 3, retryInMs } }),
      },
    },
    available: available ? ['sh'] : [],
    toolRegistries: {},
  }) as unknown as EngineState;

describe('trackStateChanges', () => {
  it('sends the state once, then only when it changed', () => {
    const changed = trackStateChanges();
    expect(changed(state(true))).toEqual(state(true));
    expect(changed(state(true))).toBeUndefined();
    expect(changed(state(false))).toEqual(state(false));
    expect(changed(state(false))).toBeUndefined();
  });

  it("sends a degraded tag's state whenever its cool-down moved on", () => {
    const changed = trackStateChanges();
    expect(changed(state(true, 60_000))).toBeDefined();
    expect(changed(state(true, 59_000))).toBeDefined();
  });
});

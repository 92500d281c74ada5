import { describe, expect, it } from 'vitest';
import type { EngineState } from '../../../src/engine/engine-protocol.js';
import { trackDegradation, trackStateChanges } from '../../../src/engine/state-changes.js';
import type { Tier } from '../../../src/model/tier.js';

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

describe('trackDegradation', () => {
  it('says when a tag’s breaker verdict moved since the last look, and only then', () => {
    const verdicts = new Map<string, { reason: string; crashes: number; retryInMs: number } | undefined>([
      ['sh', undefined],
      ['jq', undefined],
    ]);
    const tier = {
      discovery: { registry: verdicts },
      availability: (tag: string) => ({ available: true, probeMs: 1, degraded: verdicts.get(tag) }),
    } as unknown as Tier;
    const moved = trackDegradation();
    expect(moved(tier)).toBe(false);
    verdicts.set('jq', { reason: 'boom', crashes: 3, retryInMs: 60_000 });
    expect(moved(tier)).toBe(true);
    // Its cool-down running on is not news: the service counts it down itself.
    verdicts.set('jq', { reason: 'boom', crashes: 3, retryInMs: 59_000 });
    expect(moved(tier)).toBe(false);
    verdicts.set('jq', undefined);
    expect(moved(tier)).toBe(true);
  });
});

import { describe, expect, it } from 'vitest';
import type { EngineMessage, EngineState } from '../../../src/engine/engine-protocol.js';
import { outOfScope, stateOutOfScope } from '../../../src/engine/wire-scope.js';

/** An engine holding tags `jq` and `gojq`, with runs 3 and 4 and effect call 5 in flight. */
const SCOPE = { tags: new Set(['jq', 'gojq']), runs: new Set([3, 4]), effects: new Set([5]) };

const OUTCOME = {
  outcome: 'ok',
  result: { status: 200 },
  effect: 'pure',
  address: null,
  channels: {},
  notices: [],
  violations: [],
} as const;

function state(tags: string[]): EngineState {
  return {
    availability: Object.fromEntries(tags.map((tag) => [tag, { available: true, probeMs: 1 }])),
    available: tags,
    toolRegistries: {},
  };
}

const frame = (message: unknown) => message as EngineMessage;

describe('what a frame from one engine may concern', () => {
  it.each([
    [
      'sink calls of its runs',
      {
        t: 'sinks',
        calls: [
          [3, ['write', 'out', 'x']],
          [4, ['setState', 'out', 'closed']],
        ],
      },
    ],
    [
      'an outcome of its run, with its own tags’ state',
      { t: 'outcome', id: 3, outcome: OUTCOME, lengths: {}, state: state(['jq']) },
    ],
    ['an interaction of its run', { t: 'sink-request', id: 4, call: 0, name: 'interact', args: [] }],
    ['an answer to its effect call', { t: 'effect', id: 5, effect: 'read' }],
    ['a heartbeat', { t: 'heartbeat' }],
    ['a heartbeat with its own tags’ state', { t: 'heartbeat', state: state(['gojq']) }],
  ])('accepts %s', (_case, message) => {
    expect(outOfScope(frame(message), SCOPE)).toBeUndefined();
  });

  it.each([
    [
      'sink calls naming a run another engine holds, among its own',
      {
        t: 'sinks',
        calls: [
          [3, ['write', 'out', 'x']],
          [9, ['write', 'out', 'forged']],
        ],
      },
      /^sink calls of run 9, which is not in flight in this engine/,
    ],
    [
      'an outcome of a run it was never sent',
      { t: 'outcome', id: 0, outcome: OUTCOME, lengths: {} },
      /^an outcome of run 0, which/,
    ],
    [
      'a state for a tag of another package, on an outcome of its own run',
      { t: 'outcome', id: 3, outcome: OUTCOME, lengths: {}, state: state(['jq', 'sh']) },
      /^a state naming tag "sh", which is not one of its packages'/,
    ],
    [
      'a heartbeat with a state listing a tag no package of it declares',
      { t: 'heartbeat', state: state(['jq', 'ghost']) },
      /^a state naming tag "ghost"/,
    ],
    ['an effect reply no call awaits', { t: 'effect', id: 3, effect: 'pure' }, /^an effect reply to call 3, which/],
    [
      'an effect error no call awaits',
      { t: 'effect-error', id: 6, error: { name: 'E', message: 'm' } },
      /^an effect-error reply to call 6/,
    ],
    [
      'an exec error of a run it does not hold',
      { t: 'exec-error', id: 8, error: { name: 'E', message: 'm' } },
      /^a exec-error of run 8/,
    ],
    [
      'a probe verdict after the boot',
      { t: 'probe', tag: 'jq', availability: { available: false, probeMs: 0 } },
      /^a probe frame after it booted$/,
    ],
    ['a booted frame after the boot', { t: 'booted', state: state(['jq']) }, /^a booted frame after it booted$/],
  ])('refuses %s', (_case, message, why) => {
    expect(outOfScope(frame(message), SCOPE)).toMatch(why);
  });

  it('refuses a state that lists, or gives a tool family to, a tag it does not hold', () => {
    expect(stateOutOfScope({ ...state(['jq']), available: ['jq', 'ghost'] }, SCOPE.tags)).toMatch(/"ghost"/);
    const tools = { ...state(['jq']), toolRegistries: { git: { tools: [] } } } as unknown as EngineState;
    expect(stateOutOfScope(tools, SCOPE.tags)).toMatch(/"git"/);
    expect(stateOutOfScope(state(['gojq', 'jq']), SCOPE.tags)).toBeUndefined();
  });
});

import { describe, expect, it } from 'vitest';
import type { RecyclePolicy } from '../../../../src/model/host-types.js';
import {
  judgeIdleLoad,
  pickThread,
  retireReason,
  shouldRetire,
  sparesTarget,
} from '../../../../src/thread-host/threads/thread-policy.js';

const idle = (...runs: number[]) => runs.map((n) => ({ runs: n }));

describe('pickThread', () => {
  it.each([
    ['no idle thread: start a new one', idle(), -1],
    ['only the spare', idle(0), 0],
    ['a used thread before the spare', idle(0, 2), 1],
    ['the most-used thread', idle(3, 0, 1), 0],
    ['the last given back among equals', idle(2, 2, 0), 1],
    ['the spare, when it came last among unused', idle(0, 0), 1],
  ])('%s', (_, threads, index) => {
    expect(pickThread(threads)).toBe(index);
  });

  it.each([
    ['a warm spare before a newer one still starting', ['idle', 'starting'], 0],
    ['a warm spare before an older one still starting', ['starting', 'idle'], 1],
    ['the last of the warm spares', ['idle', 'starting', 'idle', 'starting'], 2],
    ['the last spare when all are still starting', ['starting', 'starting'], 1],
  ])('%s', (_, states, index) => {
    expect(pickThread(states.map((state) => ({ runs: 0, state })))).toBe(index);
  });

  it('a used thread before a warm spare', () => {
    expect(
      pickThread([
        { runs: 0, state: 'idle' },
        { runs: 1, state: 'idle' },
        { runs: 0, state: 'starting' },
      ]),
    ).toBe(1);
  });
});

describe('shouldRetire', () => {
  const healthy = { closed: false, poisoned: false, dead: false };
  it.each<[string, RecyclePolicy, Partial<typeof healthy>, number, boolean]>([
    ["'each-run' keeps a thread that only answered calls", 'each-run', {}, 0, false],
    ["'each-run' retires a thread after its run", 'each-run', {}, 1, true],
    ["'never' keeps a thread after many runs", 'never', {}, 50, false],
    ['afterRuns 3 keeps it after 2 runs', { afterRuns: 3 }, {}, 2, false],
    ['afterRuns 3 retires it after 3', { afterRuns: 3 }, {}, 3, true],
    ["a poisoned thread, even under 'never'", 'never', { poisoned: true }, 0, true],
    ["a dead thread, even under 'never'", 'never', { dead: true }, 0, true],
    ["every thread once the tag closes, even under 'never'", 'never', { closed: true }, 0, true],
  ])('%s', (_, recycle, facts, runs, retire) => {
    expect(shouldRetire({ ...healthy, ...facts, runs }, recycle)).toBe(retire);
  });
});

describe('retireReason', () => {
  const healthy = { closed: false, poisoned: false, dead: false };
  it.each<[string, RecyclePolicy, Partial<typeof healthy>, number, string | undefined]>([
    ['a thread kept has none', 'never', {}, 5, undefined],
    ["'each-run' after a run: recycled", 'each-run', {}, 1, 'recycled'],
    ['afterRuns used up: recycled', { afterRuns: 2 }, {}, 2, 'recycled'],
    ['a poisoned thread that is also used up: poisoned', 'each-run', { poisoned: true }, 1, 'poisoned'],
    ['a dead thread that was also poisoned: crashed', 'each-run', { dead: true, poisoned: true }, 1, 'crashed'],
    ['anything once the tag closes: host-closed', 'each-run', { closed: true, dead: true }, 1, 'host-closed'],
  ])('%s', (_, recycle, facts, runs, reason) => {
    expect(retireReason({ ...healthy, ...facts, runs }, recycle)).toBe(reason);
  });
});

describe('sparesTarget', () => {
  it.each([
    ['nothing wanted: no spare', idle(0, 0), 0, 0],
    ["'each-run', 12 wanted: 12 spares", idle(), 12, 12],
    ['used threads that may run again count', idle(3, 1), 4, 2],
    ['one spare at least while a run is wanted', idle(5, 2, 1), 1, 1],
  ])('%s', (_name, threads, wanted, target) => {
    expect(sparesTarget(threads, wanted)).toBe(target);
  });
});

describe('judgeIdleLoad', () => {
  it.each([
    ['a quiet sample clears the strikes', 1, 0.1, { strikes: 0, retire: false }],
    ['exactly half busy is not past the share', 1, 0.5, { strikes: 0, retire: false }],
    ['the first busy sample is one strike', 0, 0.9, { strikes: 1, retire: false }],
    ['the second busy sample in a row retires', 1, 0.9, { strikes: 0, retire: true }],
  ])('%s', (_, strikes, utilization, verdict) => {
    expect(judgeIdleLoad(strikes, utilization)).toEqual(verdict);
  });
});

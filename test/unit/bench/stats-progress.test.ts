import { describe, expect, it } from 'vitest';
import { describeProgress } from '../../../src/bench/stats-progress.js';
import { RunBook } from '../../../src/host/observe/run-book.js';
import type { ExecOutcome } from '../../../src/model/host-types.js';
import type { OutcomeClass } from '../../../src/model/outcome-class.js';

/** A snapshot after `settled` runs of `tag`, each `ms` long, with `inFlight` more started. */
function snapshot(runs: [string, OutcomeClass, number][], inFlight: number, waiting: number) {
  const book = new RunBook(['noop', 'sh']);
  for (const [tag, outcome, ms] of runs) {
    book.started(tag);
    book.settled(tag, { outcome, result: { status: 200 }, violations: [] } as unknown as ExecOutcome, ms, 0);
  }
  for (let i = 0; i < inFlight; i++) book.started('noop');
  const threads = { starting: 0, idle: 0, busy: 0, retiring: 0, spares: 0 };
  const breaker = { state: 'closed', crashes: 0, retryInMs: null, retryAt: null, lastCrash: null } as const;
  return book.snapshot('thread', {
    tags: { noop: { threads, waiting, crashes: 0, breaker }, sh: { threads, waiting: 0, crashes: 0, breaker } },
    engines: [],
  });
}

describe('describeProgress', () => {
  it('says how many runs settled of how many, what is in flight and waiting, and each busy tag’s p95', () => {
    const stats = snapshot(
      [
        ['noop', 'ok', 3],
        ['noop', 'ok', 3],
        ['sh', 'ok', 20],
        ['sh', 'refused', 1],
      ],
      16,
      3,
    );
    expect(describeProgress('load (thread)', stats, 1000)).toMatch(
      /^load \(thread\): 4\/1000 runs \(1 refused\), 16 in flight, 3 waiting; p95 noop 3\.0 ms, sh 20 ms$/,
    );
  });

  it('says no more than the count while nothing settled', () => {
    expect(describeProgress('burst', snapshot([], 0, 0), 200)).toBe('burst: 0/200 runs, 0 in flight, 0 waiting');
  });
});

import { describe, expect, it } from 'vitest';
import type { Violation } from '../../../../src/contracts/violation.js';
import { RunBook } from '../../../../src/host/observe/run-book.js';
import type { ExecOutcome } from '../../../../src/model/host-types.js';
import type { EngineStats, TierStats } from '../../../../src/model/observe/host-stats.js';
import { OUTCOME_CLASSES, type OutcomeClass } from '../../../../src/model/outcome-class.js';

/** An outcome of class `outcome`, with `violations`. */
function outcome(cls: OutcomeClass, violations: Violation[] = []): ExecOutcome {
  return {
    outcome: cls,
    result: { status: cls === 'ok' ? 200 : 500 },
    effect: null,
    address: null,
    channels: {},
    notices: [],
    violations,
  };
}

function counts(given: Partial<Record<OutcomeClass, number>>): Record<OutcomeClass, number> {
  return Object.fromEntries(OUTCOME_CLASSES.map((cls) => [cls, given[cls] ?? 0])) as Record<OutcomeClass, number>;
}

const NO_TIER: TierStats = { tags: {}, engines: [] };

describe('RunBook', () => {
  it('counts a known sequence of runs by outcome, host-wide and per registered tag', () => {
    const book = new RunBook(['sh', 'jq']);
    const sequence: [string, OutcomeClass][] = [
      ['sh', 'ok'],
      ['sh', 'ok'],
      ['sh', 'failed'],
      ['jq', 'leaf-fault'],
      ['jq', 'refused'],
      ['nope', 'refused'],
    ];
    for (const [tag, cls] of sequence) {
      book.started(tag);
      book.settled(tag, outcome(cls), 10, cls === 'refused' ? undefined : 1);
    }
    book.started('sh');
    book.started('nope');
    const stats = book.snapshot('thread', NO_TIER);
    expect(stats.runs).toEqual({
      byOutcome: counts({ ok: 2, failed: 1, 'leaf-fault': 1, refused: 2 }),
      inFlight: 2,
      waiting: 0,
    });
    expect(Object.keys(stats.tags)).toEqual(['sh', 'jq']);
    expect(stats.tags.sh!.runs).toEqual({ byOutcome: counts({ ok: 2, failed: 1 }), inFlight: 1, waiting: 0 });
    expect(stats.tags.jq!.runs).toEqual({
      byOutcome: counts({ 'leaf-fault': 1, refused: 1 }),
      inFlight: 0,
      waiting: 0,
    });
  });

  it('keeps refused EXECs out of the latency, and records the queue wait of every run that queued', () => {
    const book = new RunBook(['sh']);
    for (const [cls, ms, queued] of [
      ['ok', 20, 2],
      ['ok', 40, 4],
      ['refused', 0.01, undefined],
      ['refused', 5000, 5000],
    ] as const) {
      book.started('sh');
      book.settled('sh', outcome(cls), ms, queued);
    }
    const { latencyMs, queueWaitMs } = book.snapshot('thread', NO_TIER).tags.sh!;
    // The histogram keeps three significant figures.
    expect(latencyMs.count).toBe(2);
    expect(latencyMs.max! / 40).toBeCloseTo(1, 2);
    // A run refused after it waited its queue bound (host-overloaded) waited all the same.
    expect(queueWaitMs.count).toBe(3);
    expect(queueWaitMs.max! / 5000).toBeCloseTo(1, 2);
  });

  it('counts the violations of each tag’s outcomes by kind', () => {
    const book = new RunBook(['sh']);
    const violations: Violation[] = [
      { kind: 'undeclared-channel', detail: 'a' },
      { kind: 'undeclared-channel', detail: 'b' },
      { kind: 'console-output', detail: 'c' },
    ];
    for (const list of [violations, [{ kind: 'console-output', detail: 'd' } as Violation]]) {
      book.started('sh');
      book.settled('sh', outcome('ok', list), 1, 0);
    }
    expect(book.snapshot('thread', NO_TIER).tags.sh!.violations).toEqual({
      'undeclared-channel': 2,
      'console-output': 2,
    });
  });

  it('takes a run that rejected out of flight without counting an outcome', () => {
    const book = new RunBook(['sh']);
    book.started('sh');
    book.rejected('sh');
    const stats = book.snapshot('thread', NO_TIER);
    expect(stats.runs).toEqual({ byOutcome: counts({}), inFlight: 0, waiting: 0 });
  });

  it('joins what the tier knows: threads, crashes, breaker, runs waiting (summed host-wide), engines', () => {
    const book = new RunBook(['sh', 'jq']);
    const breaker = { state: 'open', crashes: 3, retryInMs: 100, retryAt: 'x', lastCrash: 'boom' } as const;
    const threads = { starting: 1, idle: 2, busy: 3, retiring: 0, spares: 1 };
    const engine: EngineStats = {
      pid: 7,
      packages: ['p'],
      state: 'running',
      startedAt: 'then',
      uptimeMs: 1,
      restarts: 0,
      lastCrash: null,
      rssBytes: 1,
      containment: { pidNamespace: true, permissionModel: true },
    };
    const stats = book.snapshot('process', {
      tags: {
        sh: { threads, waiting: 4, crashes: 3, breaker },
        jq: { threads: null, waiting: 1, crashes: 0, breaker: { ...breaker, state: 'closed' } },
      },
      engines: [engine],
    });
    expect(stats.tier).toBe('process');
    expect(stats.runs.waiting).toBe(5);
    expect(stats.tags.sh).toMatchObject({ threads, crashes: 3, breaker, runs: { waiting: 4 } });
    expect(stats.tags.jq!.threads).toBeNull();
    expect(stats.engines).toEqual([engine]);
  });

  it('says since when it counts, as ISO 8601, and how long ago that was', () => {
    const before = Date.now();
    const stats = new RunBook([]).snapshot('thread', NO_TIER);
    expect(Date.parse(stats.since)).toBeGreaterThanOrEqual(before);
    expect(stats.uptimeMs).toBeGreaterThanOrEqual(0);
  });
});

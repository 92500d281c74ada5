import { describe, expect, it } from 'vitest';
import type { ExecOutcome, ForcedEnd } from '../../../src/host/index.js';
import type { OutcomeClass } from '../../../src/model/outcome-class.js';
import { judgeContract } from '../../../src/check/contract-checks.js';
import type { MeasuredRun } from '../../../src/check/measure-run.js';
import type { RunFigures } from '../../../src/check/check-report.js';

/** A run that ended as `outcome`, the host having ended it with `forcedEnd`. */
function run(
  outcome: OutcomeClass,
  forcedEnd: ForcedEnd | null,
  type = 'https://example.test/leaf/failed',
): MeasuredRun {
  return {
    outcome: {
      outcome,
      result: { status: 500, problem: { type, title: 't', status: 500, detail: 'what happened' } },
      effect: 'pure',
      channels: {},
      notices: [],
      violations: [],
      containment: { console: null, reapedProcesses: 0, forcedEnd },
    } as unknown as ExecOutcome,
    outlived: [],
    figures: {} as RunFigures,
  };
}

function resultOf(first: MeasuredRun) {
  return judgeContract({ first, again: undefined, fresh: undefined, aborted: run('cancelled', null) }, 1000).result;
}

describe('the result check, judged by outcome class and how the host ended the run', () => {
  it.each([
    // run() threw, rejected or resolved nonsense: the leaf's reply decided the fault.
    ['leaf-fault', null, 'fail'],
    ['leaf-fault', { reason: 'thread-died', terminated: false }, 'fail'],
    ['leaf-fault', { reason: 'escaped-error', terminated: false }, 'fail'],
    // A limit or a deadline the host enforced: the example and signal checks judge it.
    ['leaf-fault', { reason: 'heap-limit', terminated: true }, 'pass'],
    ['leaf-fault', { reason: 'unresponsive', terminated: true }, 'pass'],
    ['timeout', { reason: 'timeout', terminated: false }, 'pass'],
    ['failed', null, 'pass'],
  ] as const)('is %s ended %j ⇒ %s', (outcome, end, verdict) => {
    expect(resultOf(run(outcome, end)).verdict).toBe(verdict);
  });

  it('passes a leaf’s own failure whose Problem type spoofs the host’s executor-threw', () => {
    expect(resultOf(run('failed', null, 'https://problems.plurnk.xyz/scheme/exec/executor-threw')).verdict).toBe(
      'pass',
    );
  });
});

describe('the processes check, judged by what the engine’s sandbox refused', () => {
  const refusing = (forksRefused: number, oomKills: number): MeasuredRun => ({
    ...run('ok', null),
    figures: { sandbox: { forksRefused, oomKills } } as RunFigures,
  });
  const processesOf = (first: MeasuredRun) =>
    judgeContract({ first, again: undefined, fresh: undefined, aborted: run('cancelled', null) }, 1000).processes;

  it.each([
    [0, 0, { verdict: 'pass', detail: null }],
    [
      3,
      0,
      { verdict: 'fail', detail: "its processes hit the engine's pids bound (limits.enginePids): 3 fork(s) refused" },
    ],
    [
      0,
      1,
      {
        verdict: 'fail',
        detail: "the kernel's OOM killer ended 1 of its processes at the engine's memory bound (limits.engineMemoryMb)",
      },
    ],
  ])('with %i forks refused and %i OOM kills: %o', (forks, kills, item) => {
    expect(processesOf(refusing(forks, kills))).toEqual(item);
  });
});

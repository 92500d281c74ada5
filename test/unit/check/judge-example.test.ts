import { describe, expect, it } from 'vitest';
import type { RegistryEntry } from '../../../src/contracts/registry.js';
import type { ExecOutcome } from '../../../src/model/host-types.js';
import type { OutcomeClass } from '../../../src/model/outcome-class.js';
import { judgeExample } from '../../../src/check/judge-example.js';
import type { MeasuredRun } from '../../../src/check/measure-run.js';
import type { RunFigures } from '../../../src/check/check-report.js';
import { scratchDir } from '../../helpers/scratch.js';

const HOST_THREW = 'https://problems.plurnk.xyz/scheme/exec/executor-threw';

/** A first run that ended as `outcome` with `status`, its Problem typed `type`. */
function run(outcome: OutcomeClass, status: number, type = 'https://example.test/leaf/failed'): MeasuredRun {
  const problem = status < 400 ? undefined : { type, title: 't', status, detail: 'what happened' };
  return {
    outcome: { outcome, result: { status, ...(problem ? { problem } : {}) } } as unknown as ExecOutcome,
    outlived: [],
    figures: { wallMs: 7 } as RunFigures,
  };
}

function entry(targetKind?: 'path' | 'literal'): RegistryEntry {
  return {
    runtime: 'leaf',
    invocation: targetKind === undefined ? {} : { target: { kind: targetKind } },
  } as unknown as RegistryEntry;
}

const EXAMPLE = { body: 'exit 3', target: null };

describe('the verdict of an example, judged by how its first run ended', () => {
  it.each([
    ['ok', 200, 'pass'],
    // The leaf's own answers: a failure of its own, and a 499 it minted though check never aborts a first run.
    ['failed', 500, 'problem'],
    ['cancelled', 499, 'problem'],
    // What the host stepped in for.
    ['timeout', 504, 'fail'],
    ['refused', 400, 'fail'],
    ['leaf-fault', 500, 'fail'],
    ['host-fault', 500, 'fail'],
  ] as const)('is %s %i ⇒ %s', (outcome, status, verdict) => {
    const judged = judgeExample(entry(), EXAMPLE, run(outcome, status), scratchDir('judge-example'));
    expect(judged).toMatchObject({ verdict, outcome, status, ms: 7 });
    expect(judged.needs).toBe(verdict === 'problem' ? 'a working directory with what it expects' : null);
  });

  it('reads a leaf’s own Problem that spoofs the host’s type as the leaf’s own, not a fault', () => {
    const judged = judgeExample(entry(), EXAMPLE, run('failed', 500, HOST_THREW), scratchDir('judge-example'));
    expect(judged).toMatchObject({ verdict: 'problem', problem: HOST_THREW });
  });

  it('skips an example whose file target is missing as not run, when the leaf answered a Problem of its own', () => {
    const cwd = scratchDir('judge-example');
    const judged = judgeExample(entry('path'), { body: '', target: 'notes.txt' }, run('failed', 404), cwd);
    expect(judged).toMatchObject({ verdict: 'skip', needs: null });
    expect(judged.detail).toBe(
      `not run: needs notes.txt (no such path in ${cwd}; give check a cwd (--cwd <dir>) where it exists): what happened`,
    );
  });

  it('fails an example whose target is missing when the leaf threw for it: a fault is a fault', () => {
    const judged = judgeExample(
      entry('path'),
      { body: '', target: 'notes.txt' },
      run('leaf-fault', 500, HOST_THREW),
      scratchDir('judge-example'),
    );
    expect(judged.verdict).toBe('fail');
  });
});

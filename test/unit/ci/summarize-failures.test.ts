import { spawnSync } from 'node:child_process';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { scratchDir } from '../../helpers/scratch.js';

// .ci/summarize-failures.mjs writes the end of the CI log, the only part of it a later session
// may read. vitest's JSON report gives a file whose `beforeAll` failed no failed test and an empty
// message, so the summary must take that error from the log or the failure goes unexplained.
const SUMMARIZE = join(import.meta.dirname, '..', '..', '..', '.ci', 'summarize-failures.mjs');
const REPO = join(import.meta.dirname, '..', '..', '..');

function summarize(report: object, log: string): string {
  const dir = scratchDir('plurnk-ci-summary');
  writeFileSync(join(dir, 'report.json'), JSON.stringify(report));
  writeFileSync(join(dir, 'run.log'), log);
  const ran = spawnSync(process.execPath, [SUMMARIZE, 'Node vX', join(dir, 'report.json'), join(dir, 'run.log')], {
    cwd: REPO,
    encoding: 'utf8',
  });
  expect(ran.stderr).toBe('');
  return ran.stdout;
}

const FILE = join(REPO, 'test/integration/engine/engine-sandbox.test.ts');
const hookFailed = {
  numFailedTests: 0,
  numTotalTests: 3,
  testResults: [
    {
      name: FILE,
      status: 'failed',
      message: '',
      assertionResults: [
        { fullName: 'sandbox as nobody reports', status: 'skipped', failureMessages: [] },
        { fullName: 'sandbox as root reports', status: 'passed', failureMessages: [] },
      ],
    },
    { name: join(REPO, 'test/unit/other.test.ts'), status: 'passed', message: '', assertionResults: [] },
  ],
};
// As vitest prints it, colours and all.
const LOG = [
  ' \x1b[32m✓\x1b[39m test/unit/other.test.ts',
  '\x1b[31m⎯⎯⎯⎯⎯⎯ Failed Suites 1 ⎯⎯⎯⎯⎯⎯⎯\x1b[39m',
  '',
  ' \x1b[31mFAIL\x1b[39m  \x1b[46m integration \x1b[49m test/integration/engine/engine-sandbox.test.ts > sandbox as nobody',
  "AssertionError: expected 'node: a warning\\n' to be '' // Object.is equality",
  '',
  '+ node: a warning',
  '\x1b[31m⎯⎯⎯⎯[1/1]⎯\x1b[39m',
  ' Test Files  1 failed | 1 passed (2)',
].join('\n');

describe('the CI summary of a run', () => {
  it('counts failed files beside failed tests, and prints a failed hook’s error from the log', () => {
    const lines = summarize(hookFailed, LOG).trimEnd().split('\n');
    expect(lines).toEqual([
      '--- Node vX: what failed, and what passed only on retry',
      '0 of 3 tests failed; 1 of 2 test files failed',
      'FAIL test/integration/engine/engine-sandbox.test.ts',
      '   FAIL   integration  test/integration/engine/engine-sandbox.test.ts > sandbox as nobody',
      "  AssertionError: expected 'node: a warning\\n' to be '' // Object.is equality",
      '  + node: a warning',
    ]);
  });

  it('says so when the log names no failed suite of the file', () => {
    expect(summarize(hookFailed, 'nothing of use')).toContain('(the log names no failed suite of it)');
  });
});

// A check's verdict is true both ways: an example that ends in a Problem the leaf itself
// answered is a warning (clean unless --strict), not a fault; one the host had to step in for
// (a throw) is a fault. The public 1.x case is made concrete with the built-in executors under
// the declarations 1.x shipped, whose examples cannot succeed outside a git repository.
import { execFileSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { checkPackage, type CheckReport } from '../../../src/check/index.js';
import { runCli } from '../../helpers/run-cli.js';
import { scratchDir } from '../../helpers/scratch.js';

const CHECK_FIXTURES = fileURLToPath(new URL('../../../fixtures/check', import.meta.url));
const QUICK = { timeoutMs: 5000, graceMs: 1000, probeTimeoutMs: 3000, isolation: 'thread' } as const;
const NONZERO_EXIT = 'https://problems.plurnk.xyz/executor/subprocess/nonzero-exit';

describe('check judges an example by how it ended', () => {
  it('calls an example that exits nonzero by design clean, warning with the status, the Problem type and what it needs', async () => {
    const report = await checkPackage(`${CHECK_FIXTURES}/exits-nonzero-by-design`, QUICK);
    expect(report).toMatchObject({ schema: 'plurnk-execs/check@2', clean: true, strict: false });
    const [tag] = report.tags;
    expect(tag).toMatchObject({
      tag: 'count-todos',
      verdict: 'problem',
      example: { verdict: 'problem', outcome: 'failed', status: 500, problem: NONZERO_EXIT, needs: 'a file notes.txt' },
    });
    expect(tag!.warning).toBe(
      `ran with a Problem of its own: 500 ${NONZERO_EXIT}; the example seems to need a file notes.txt — give check a cwd that has it (--cwd <dir>)`,
    );
    // It answered, so every contract check ran, and passed: the same answer in a fresh thread and again in its first.
    expect(Object.values(tag!.checks).map((check) => check.verdict)).toEqual(Array(7).fill('pass'));
    expect(tag!.runs.map((run) => run.run)).toEqual(['first', 'again', 'fresh', 'aborted']);
  });

  it('calls the same example not clean under --strict, and exits 1', async () => {
    const dir = `${CHECK_FIXTURES}/exits-nonzero-by-design`;
    const lenient = await runCli(['check', dir, '--isolation', 'thread']);
    expect(lenient.stdout).toMatch(/^count-todos\s+ok\s+ok \d+ ms\s+warn 500(\s+ok){7}\s+warning$/m);
    expect(lenient.stdout.trimEnd().split('\n').at(-1)).toBe(
      'clean — 1 tag(s): 0 fault, 1 ran with a Problem, 0 not run',
    );
    expect(lenient.code).toBe(0);
    const strict = await runCli(['check', dir, '--isolation', 'thread', '--strict', '--json']);
    expect(JSON.parse(strict.stdout)).toMatchObject({ clean: false, strict: true, tags: [{ verdict: 'problem' }] });
    expect(strict.code).toBe(1);
  });

  it('calls an example that throws where the other answers a Problem a fault', async () => {
    const report = await checkPackage(`${CHECK_FIXTURES}/throws-on-its-example`, QUICK);
    expect(report.clean).toBe(false);
    expect(report.tags[0]).toMatchObject({
      verdict: 'fault',
      warning: null,
      example: { verdict: 'fail', outcome: 'leaf-fault', status: 500, needs: null },
      checks: { result: { verdict: 'fail' }, state: { verdict: 'skip' } },
    });
  });

  it.each([
    ['sh', 'sh-example-outside-a-repository'],
    ['git', 'git-example-outside-a-repository'],
  ])(
    'does not call the built-in %s executor a fault for its 1.x example outside a repository',
    async (tag, fixture) => {
      // check's default: the process tier, in an empty temporary directory.
      const { code, stdout } = await runCli(['check', `${CHECK_FIXTURES}/${fixture}`, '--json']);
      const report = JSON.parse(stdout) as CheckReport;
      expect(report.tags).toMatchObject([
        {
          tag,
          verdict: 'problem',
          example: { outcome: 'failed', status: 500, problem: NONZERO_EXIT, needs: 'a git repository' },
        },
      ]);
      expect(report.clean).toBe(true);
      expect(code).toBe(0);
    },
    60_000,
  );

  it('calls the 1.x sh example ok where --cwd is a git repository', async () => {
    const repository = scratchDir('check-repository');
    execFileSync('git', ['init', '-q', repository]);
    const report = await checkPackage(`${CHECK_FIXTURES}/sh-example-outside-a-repository`, {
      ...QUICK,
      cwd: repository,
    });
    expect(report.tags[0]).toMatchObject({ verdict: 'ok', example: { verdict: 'pass', status: 200, outcome: 'ok' } });
  });
});

// What each run of an example did, measured by the host and by check rather than reported by
// the leaf: files under its cwd, processes started and left, peak memory, console bytes,
// what reached check's sinks, violations by kind.
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { checkPackage } from '../../../src/check/index.js';
import { zooDirs } from '../../helpers/zoo.js';

const CHECK_FIXTURES = fileURLToPath(new URL('../../../fixtures/check', import.meta.url));
const QUICK = { timeoutMs: 5000, graceMs: 1000, probeTimeoutMs: 3000 } as const;

describe.each(['thread', 'process'] as const)('what a run did, in the %s tier', (isolation) => {
  it('counts the two files a run wrote and the one child it started and waited for', async () => {
    const report = await checkPackage(`${CHECK_FIXTURES}/writes-two-files-and-reaps-a-child`, {
      ...QUICK,
      isolation,
    });
    const [tag] = report.tags;
    expect(tag!.verdict).toBe('ok');
    const answered = tag!.runs.filter((run) => run.run !== 'aborted');
    expect(answered.map((run) => run.run)).toEqual(['first', 'again', 'fresh']);
    // Check empties its directory before each run: every run creates both files anew.
    for (const run of answered) {
      expect(run).toMatchObject({
        outcome: 'ok',
        status: 200,
        processes: { started: 1, left: 0, escaped: 0 },
        files: { created: 2, changed: 0, removed: 0, paths: ['+one.txt', '+two.txt'] },
        consoleBytes: 0,
        sinks: { messages: 1, bytes: Buffer.byteLength('wrote 2 files; the child exited 0') },
        violations: {},
      });
      // The run waits 300 ms for its child: the thread's 25 ms heartbeats report its memory, and
      // check's 50 ms samples of /proc see the child's peak resident set.
      expect(run.memory.threadPeakBytes).toBeGreaterThan(1024 * 1024);
      expect(run.memory.childrenPeakBytes).toBeGreaterThan(0);
      expect(run.wallMs).toBeGreaterThan(0);
    }
  }, 60_000);

  it('counts the child a run left behind as started and left, and fails its processes check', async () => {
    const report = await checkPackage(`${CHECK_FIXTURES}/leaves-a-child-behind`, { ...QUICK, isolation });
    const [tag] = report.tags;
    expect(tag).toMatchObject({ verdict: 'fault', checks: { processes: { verdict: 'fail' } } });
    expect(tag!.runs[0]).toMatchObject({
      run: 'first',
      outcome: 'ok',
      processes: { started: 1, left: 1, escaped: 0 },
      files: { created: 0, changed: 0, removed: 0, paths: [] },
    });
  }, 60_000);
});

describe('what a run did, by the facts the host keeps', () => {
  it('counts what reached check’s sinks and the violations by kind, never what the host refused', async () => {
    const report = await checkPackage(zooDirs('writes-undeclared')[0]!, { ...QUICK, isolation: 'thread' });
    // Two writes to `out` arrive; the write to and the close of the undeclared `secrets` do not.
    expect(report.tags[0]!.runs[0]).toMatchObject({
      sinks: { messages: 2, bytes: Buffer.byteLength('before the fault, after') },
      violations: { 'undeclared-channel': 2 },
      consoleBytes: 0,
    });
  });

  it('counts every byte a run printed through the console, though the host keeps only the first', async () => {
    const report = await checkPackage(zooDirs('console-spam')[0]!, { ...QUICK, isolation: 'thread' });
    let printed = 0;
    for (let i = 0; i < 500; i++)
      for (const what of ['line', 'error', 'stdout', 'stderr']) printed += `zoo-console-spam ${what} ${i}\n`.length;
    expect(report.tags[0]!.runs[0]).toMatchObject({ consoleBytes: printed, violations: { 'console-output': 1 } });
  });
});

describe('what the engine’s sandbox refused a run', () => {
  it('counts the forks a flood had refused at the engine’s pids bound, and fails its processes check', async () => {
    const report = await checkPackage(`${CHECK_FIXTURES}/floods-processes`, { ...QUICK, isolation: 'process' });
    const [tag] = report.tags;
    const first = tag!.runs[0]!;
    if (report.isolation?.cgroup === null) {
      // No cgroup here (not root, none delegated): nothing is counted, and the report says why.
      expect(report.isolation.missing?.cgroup).toMatch(/^no writable cgroup: /);
      expect(first.sandbox).toBeNull();
      return;
    }
    // check's engine holds 256 processes and threads: 300 sleeps cannot all start.
    expect(tag).toMatchObject({
      verdict: 'fault',
      checks: {
        processes: { verdict: 'fail', detail: expect.stringMatching(/^its processes hit the engine's pids bound/) },
      },
    });
    expect(first.sandbox!.forksRefused).toBeGreaterThan(0);
    expect(first.sandbox!.oomKills).toBe(0);
  }, 60_000);
});

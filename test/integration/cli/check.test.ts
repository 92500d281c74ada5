import { closeSync, constants, mkdirSync, openSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { checkPackage, type CheckReport } from '../../../src/check/index.js';
import { fixture } from '../../helpers/discovery-fixtures.js';
import { isInstalled, missingDetail } from '../../helpers/interpreters.js';
import { REPO, runCli } from '../../helpers/run-cli.js';
import { zooDirs } from '../../helpers/zoo.js';
import { scratchDir } from '../../helpers/scratch.js';
import { detectPidNamespace } from '../../../src/engine/engine-command.js';

/** What failed in a report: `discovery`, and `<tag>.<part>` for every failed part of a tag. */
/** Every part of a report that failed, as `tag.part`, with its detail. */
function failedParts(report: CheckReport): { part: string; detail: string }[] {
  const failed =
    report.discovery.verdict === 'fail' ? [{ part: 'discovery', detail: String(report.discovery.error) }] : [];
  for (const tag of report.tags) {
    const parts = { manifest: tag.manifest, probe: tag.probe, example: tag.example, ...tag.checks };
    for (const [part, item] of Object.entries(parts))
      if (item.verdict === 'fail')
        failed.push({ part: `${tag.tag}.${part}`, detail: String((item as { detail?: unknown }).detail) });
  }
  return failed.sort((x, y) => (x.part < y.part ? -1 : 1));
}

function failures(report: CheckReport): string[] {
  return failedParts(report).map(({ part }) => part);
}

/** The report fails exactly `mustFail`, and perhaps `mayFail`; a part that differs is named with its detail. */
function expectVerdict(report: CheckReport, mustFail: readonly string[], mayFail: readonly string[]): void {
  const failed = failedParts(report);
  expect(failed.map(({ part }) => part)).toEqual(expect.arrayContaining([...mustFail]));
  const unexpected = failed.filter(({ part }) => !mustFail.includes(part) && !mayFail.includes(part));
  expect(unexpected.map(({ part, detail }) => `${part}: ${detail}`)).toEqual([]);
}

/**
 * Small limits so hanging leaves are judged quickly; generous enough for a loaded machine. The
 * matrix runs in the thread tier: in the process tier every sink message also crosses the
 * engine's pipe, and floods-sink-port alone takes minutes there. The process tier (check's
 * default) is judged on a sample below.
 */
const QUICK = { timeoutMs: 3000, graceMs: 300, probeTimeoutMs: 1500, isolation: 'thread' } as const;

// Every fixture of the zoo, and the verdict it deserves: the parts that must fail and, for a
// few whose second fault races the first (a bomb may hit its limit before or after grace),
// the parts that may fail too. Nothing else may.
const ZOO_VERDICTS: [fixture: string, mustFail: string[], mayFail?: string[]][] = [
  ['healthy', []],
  ['host/exec-reads-env', []],
  ['run-throws', ['run-throws.example', 'run-throws.result']],
  ['run-rejects', ['run-rejects.example', 'run-rejects.result']],
  ['run-never-settles', ['run-never-settles.example', 'run-never-settles.signal']],
  ['run-spins', ['run-spins.example', 'run-spins.signal']],
  [
    'run-blocks-in-exec-sync',
    ['run-blocks-in-exec-sync.example', 'run-blocks-in-exec-sync.signal', 'run-blocks-in-exec-sync.processes'],
  ],
  ['ignores-abort', ['ignores-abort.example', 'ignores-abort.signal']],
  ['run-exits', ['run-exits.example', 'run-exits.result']],
  ['late-uncaught-exception', ['late-uncaught-exception.example', 'late-uncaught-exception.result']],
  ['late-unhandled-rejection', ['late-unhandled-rejection.example', 'late-unhandled-rejection.result']],
  ['escapes-between-runs', []],
  ['invalid-result', ['invalid-result.example', 'invalid-result.result']],
  ['probe-spins', ['probe-spins.probe']],
  ['host/exec-probe-hangs', ['probe-hangs.probe']],
  ['host/exec-throws-on-import', ['import-throws.probe']],
  ['host/exec-throws-in-constructor', ['ctor-throws.probe']],
  ['host/exec-bad-tool-registry', ['bad-tools.probe']],
  ['effect-spins', ['effect-spins.example']],
  ['effect-throws', ['effect-throws.example']],
  ['effect-not-an-effect', ['effect-not-an-effect.example']],
  ['heap-bomb', ['heap-bomb.example'], ['heap-bomb.signal']],
  ['buffer-bomb', ['buffer-bomb.example'], ['buffer-bomb.signal']],
  ['arraybuffer-bomb', ['arraybuffer-bomb.example'], ['arraybuffer-bomb.signal']],
  ['wasm-memory-growth', ['wasm-memory-growth.example'], ['wasm-memory-growth.signal']],
  ['sync-buffer-bomb', ['sync-buffer-bomb.example', 'sync-buffer-bomb.signal']],
  ['output-flood', ['output-flood.example']],
  ['console-spam', ['console-spam.console']],
  ['writes-undeclared', ['writes-undeclared.undeclaredChannels']],
  ['mutates-args', ['mutates-args.example', 'mutates-args.result', 'mutates-args.violations']],
  [
    'starts-worker-thread',
    ['starts-worker-thread.example', 'starts-worker-thread.result', 'starts-worker-thread.violations'],
  ],
  ['signals-its-host', ['signals-its-host.example', 'signals-its-host.result', 'signals-its-host.violations']],
  [
    'reaches-main-thread',
    ['reaches-main-thread.example', 'reaches-main-thread.result', 'reaches-main-thread.violations'],
  ],
  [
    'signals-past-the-guard',
    ['signals-past-the-guard.example', 'signals-past-the-guard.result', 'signals-past-the-guard.violations'],
  ],
  ['broadcasts', ['broadcasts.example', 'broadcasts.result', 'broadcasts.violations']],
  [
    'turns-process-knobs',
    ['turns-process-knobs.example', 'turns-process-knobs.result', 'turns-process-knobs.violations'],
  ],
  ['lies-about-memory', ['lies-about-memory.example'], ['lies-about-memory.signal']],
  ['leaves-children', ['leaves-children.processes']],
  ['retains-state', ['retains-state.state']],
  ['spawns-grandchildren', ['spawns-grandchildren.processes']],
  ['child-ignores-sighup', ['child-ignores-sighup.processes']],
  ['child-escapes-setsid', ['child-escapes-setsid.processes']],
  ['hijacks-sink-port', ['hijacks-sink-port.violations']],
  [
    'sends-unserializable-values',
    ['sends-unserializable-values.undeclaredChannels', 'sends-unserializable-values.violations'],
  ],
  ['forges-task-reply', ['forges-task-reply.processes', 'forges-task-reply.violations']],
  ['resolves-deep-result', ['resolves-deep-result.example', 'resolves-deep-result.result']],
  ['spins-at-import', ['spins-at-import.probe']],
  ['probe-rejects', ['probe-rejects.probe']],
  // Its tags are probed in one thread: the two that end it and the one that hangs it fail, the healthy two stay clean.
  ['probes-together', ['pair-exits.probe', 'pair-spins.probe', 'pair-dies.probe']],
  ['probe-malformed-verdict', ['probe-malformed-verdict.probe']],
  ['declares-invalid-channels', ['declares-invalid-channels.probe']],
  // Its import stalls only behind a gate file the boot test creates.
  ['stalls-at-import', []],
  // Its probe says it cannot run here: skipped, not failed.
  ['unavailable-here', []],
  [
    'oversized-leaf-values',
    [
      'oversized-leaf-values.example',
      'oversized-leaf-values.result',
      'oversized-leaf-values.undeclaredChannels',
      'oversized-leaf-values.violations',
    ],
    // It moves megabytes through its ports: on a loaded machine an aborted run may outlast the 300 ms grace.
    ['oversized-leaf-values.signal'],
  ],
  ['invalid-declarations', ['discovery', 'Broken.manifest']],
  ['hook-spins', ['discovery']],
  ['hook-exits', ['discovery']],
  ['forges-process-groups', ['forges-process-groups.violations']],
  // Its import-time child carries no run's marker and is reaped with its thread: the host
  // contains it, and no run of check can see it.
  ['starts-child-at-import', []],
  // Its runs answer; only the host's idle watch sees the loop it leaves running (and retires the thread).
  ['busy-while-idle', []],
  // check offers no interact sink: every interaction resolves cancelled at once, so none is ever pending.
  ['floods-interactions', []],
  ['floods-sink-port', ['floods-sink-port.example'], ['floods-sink-port.signal']],
];

describe('plurnk-execs check against the zoo', () => {
  it.each(ZOO_VERDICTS)(
    'gives %s the verdict it deserves',
    async (name, mustFail, mayFail = []) => {
      const report = await checkPackage(zooDirs(name)[0]!, QUICK);
      expectVerdict(report, mustFail, mayFail);
      expect(report.clean).toBe(mustFail.length === 0 && report.tags.length > 0);
    },
    60_000,
  );

  // check's default tier gives the same verdicts: a sample of every kind of check.
  it.each([
    'run-throws',
    'run-spins',
    'console-spam',
    'leaves-children',
    'child-escapes-setsid',
    'turns-process-knobs',
  ])(
    'gives %s the same verdict in the process tier',
    async (name) => {
      const [, mustFail, mayFail = []] = ZOO_VERDICTS.find(([fixture]) => fixture === name)!;
      const report = await checkPackage(zooDirs(name)[0]!, { ...QUICK, isolation: 'process' });
      expect(report.isolation?.tier).toBe('process');
      expectVerdict(report, mustFail, mayFail);
    },
    60_000,
  );

  it.runIf(detectPidNamespace() !== null)(
    'gives forges-process-groups its thread-tier verdict in the process tier: the parent it forges is the namespace’s init',
    async () => {
      const report = await checkPackage(zooDirs('forges-process-groups')[0]!, { ...QUICK, isolation: 'process' });
      // Inside the engine's namespace the parent is its init, whose group (led from outside) reads as 0.
      expect(failures(report)).toEqual(['forges-process-groups.violations']);
      expect(report.tags[0]!.checks.violations.detail).toMatch(/^process\.kill\(0\): that is the host’s process group/);
    },
    60_000,
  );

  it('gives blocks-opening-fifo its verdict, though its threads stay blocked in the kernel', async () => {
    // Its example blocks its thread opening this FIFO; terminate() cannot reach it, so close() gives up on the thread.
    const fifo = join(tmpdir(), `zoo-blocks-opening-fifo-${process.pid}`);
    try {
      const report = await checkPackage(zooDirs('blocks-opening-fifo')[0]!, QUICK);
      expect(failures(report)).toEqual(['blocks-opening-fifo.example', 'blocks-opening-fifo.signal']);
    } finally {
      // Let the blocked threads go, so this process can exit.
      try {
        closeSync(openSync(fifo, constants.O_WRONLY | constants.O_NONBLOCK));
      } catch {
        // No thread is blocked on it.
      }
      rmSync(fifo, { force: true });
    }
  }, 60_000);

  it('fails a package whose runtimes hook never settles, at discovery', async () => {
    const report = await checkPackage(fixture('hooks', 'hook-hangs'), QUICK);
    expect(report).toMatchObject({ clean: false, tags: [], discovery: { verdict: 'fail' } });
    expect(report.discovery.error).toMatch(/hook-hangs.*it did not settle within 1500 ms/s);
  });

  it('reports every validation error against its own tag, and the whole discovery error', async () => {
    const report = await checkPackage(zooDirs('invalid-declarations')[0]!, QUICK);
    expect(report.tags.map((tag) => [tag.tag, tag.verdict, tag.manifest.verdict])).toEqual([
      ['fine', 'not-run', 'pass'],
      ['Broken', 'fault', 'fail'],
    ]);
    expect(report.tags[1]!.manifest.errors).toEqual([
      expect.stringMatching(/^name must match/),
      expect.stringMatching(/^summary must be one line/),
      expect.stringMatching(/^invocation\.body\.required must be true or false; received "yes"/),
      expect.stringMatching(/^colour is not a known field/),
    ]);
    expect(report.discovery.error).toContain('(4 problems)');
  });

  it('names what it found: the escaped process the host killed, the console text, the retained state', async () => {
    const [setsid, spam, state] = await Promise.all(
      ['child-escapes-setsid', 'console-spam', 'retains-state'].map((name) => checkPackage(zooDirs(name)[0]!, QUICK)),
    );
    expect(setsid!.tags[0]!.checks.processes.detail).toBe(
      'run() resolved while 1 of its processes were still running; the host killed them',
    );
    expect(spam!.tags[0]!.checks.console.detail).toMatch(
      /^printed \d+ bytes through console\.\*, stdout or stderr instead of a declared channel: "zoo-console-spam line 0\\n/,
    );
    expect(state!.tags[0]!.checks.state.detail).toContain('"out":"run 2"');
  });
});

describe('plurnk-execs check (the command)', () => {
  it.each(['common', 'git', 'jq', 'sqlite', 'wasm'])(
    'finds the built-in %s leaf clean and exits 0',
    async (leaf) => {
      const { code, stdout, stderr } = await runCli([
        'check',
        join('src', 'leaves', leaf),
        '--json',
        '--probe-timeout',
        '30000',
      ]);
      // A CLI that printed no report says why on stderr: show it with the failure.
      expect(stdout, `exit ${code}; stderr: ${stderr}`).not.toBe('');
      const report = JSON.parse(stdout) as CheckReport;
      expect(report).toMatchObject({
        schema: 'plurnk-execs/check@2',
        clean: true,
        package: { name: `@plurnk/plurnk-execs-${leaf}` },
        discovery: { verdict: 'pass', error: null },
      });
      for (const tag of report.tags) {
        // Exactly the interpreters missing from this machine are skipped, with the probe's own words.
        if (isInstalled(tag.tag)) {
          expect(tag.verdict).toBe('ok');
          expect(tag.example.status).toBe(200);
        } else {
          expect(tag).toMatchObject({
            verdict: 'not-run',
            probe: { verdict: 'skip', available: false, fault: null, detail: missingDetail(tag.tag) },
          });
        }
      }
      expect(code).toBe(0);
    },
    180_000,
  );

  it('prints a table, the reason for every failure, and the verdict; exits 1 when not clean', async () => {
    const { code, stdout } = await runCli(['check', zooDirs('run-throws')[0]!, '--timeout', '3000', '--grace', '300']);
    expect(code).toBe(1);
    const lines = stdout.trimEnd().split('\n');
    expect(lines[0]).toMatch(/^check zoo-run-throws \(.*fixtures\/zoo\/run-throws\)$/);
    expect(lines[1]).toMatch(
      /^TAG\s+MANIFEST\s+PROBE\s+EXAMPLE\s+UNDECLARED\s+CONSOLE\s+SIGNAL\s+PROCESSES\s+STATE\s+RESULT\s+VIOLATIONS\s+VERDICT$/,
    );
    expect(lines[2]).toMatch(/^run-throws\s+ok\s+ok \d+ ms\s+FAIL 500\s+ok\s+ok\s+ok\s+ok\s+-\s+FAIL\s+ok\s+FAULT$/);
    expect(stdout).toContain(
      'run-throws example: https://problems.plurnk.xyz/scheme/exec/executor-threw: run() threw: RangeError: run-throws gave up',
    );
    expect(stdout).toContain('run-throws result: run() threw: RangeError: run-throws gave up');
    expect(lines.at(-1)).toBe('NOT CLEAN — 1 tag(s): 1 fault, 0 ran with a Problem, 0 not run');
  });

  it('fails a leaf whose toolRegistry() is invalid, by the probe fault kind, and exits 1', async () => {
    const { code, stdout } = await runCli(['check', 'fixtures/host/exec-bad-tool-registry', '--json'], { cwd: REPO });
    const report = JSON.parse(stdout) as CheckReport;
    expect(report.clean).toBe(false);
    expect(report.tags[0]).toMatchObject({
      tag: 'bad-tools',
      verdict: 'fault',
      probe: { verdict: 'fail', available: false, fault: 'invalid-tool-registry' },
    });
    expect(report.tags[0]!.probe.detail).toMatch(/tools\[1\]\.target/);
    expect(code).toBe(1);
  });

  it('reports an example whose file target is missing where it ran as not run, never as a failure', async () => {
    const report = await checkPackage(zooDirs('host/exec-reads-target')[0]!, QUICK);
    expect(failures(report)).toEqual([]);
    const tag = report.tags[0]!;
    expect(tag).toMatchObject({
      tag: 'reads-target',
      verdict: 'not-run',
      example: { verdict: 'skip', target: 'notes.txt' },
    });
    expect(tag.example.detail).toMatch(
      /^not run: needs notes\.txt \(no such path in \/.*plurnk-execs-check-\w+; give check a cwd \(--cwd <dir>\) where it exists\): could not read notes\.txt: ENOENT$/,
    );
    expect(
      Object.values(tag.checks).every((check) => check.verdict === 'skip' && check.detail === tag.example.detail),
    ).toBe(true);
  });

  it('runs the examples where --cwd says, resolved against the current directory', async () => {
    const project = scratchDir('check-cwd');
    mkdirSync(join(project, 'data'));
    writeFileSync(join(project, 'data', 'notes.txt'), 'hello');
    const { code, stdout } = await runCli(
      ['check', join(REPO, 'fixtures/host/exec-reads-target'), '--cwd', 'data', '--json'],
      { cwd: project },
    );
    const report = JSON.parse(stdout) as CheckReport;
    expect(report.tags[0]).toMatchObject({ verdict: 'ok', example: { verdict: 'pass', status: 200 } });
    expect(report.clean).toBe(true);
    expect(code).toBe(0);
  });

  it('prints clean and exits 0 for a clean package, run in the process tier by default', async () => {
    const { code, stdout } = await runCli(['check', zooDirs('healthy')[0]!]);
    expect(stdout).toMatch(/^healthy\s+ok\s+ok \d+ ms\s+ok 200(\s+ok){7}\s+clean$/m);
    const lines = stdout.trimEnd().split('\n');
    const yes = detectPidNamespace() === null ? 'NO' : 'yes';
    // The tier's line, the sandbox's, a line per layer not in effect (the network, by default), then the verdict.
    const tier = lines.indexOf(`isolation: process tier · PID namespace ${yes} · permission model yes`);
    expect(lines[tier + 1]).toMatch(/^sandbox: capabilities (none|inherited) · filesystem (read-only|open) · cgroup /);
    expect(lines.slice(tier + 2, -1).every((line) => /^ {2}(capabilities|fsView|cgroup|network): /.test(line))).toBe(
      true,
    );
    expect(lines.at(-1)).toBe('clean — 1 tag(s): 0 fault, 0 ran with a Problem, 0 not run');
    expect(code).toBe(0);
  });

  it('runs the examples in this process with --isolation thread, and says so', async () => {
    const { code, stdout } = await runCli(['check', zooDirs('healthy')[0]!, '--isolation', 'thread', '--json']);
    const report = JSON.parse(stdout) as CheckReport;
    expect(report).toMatchObject({
      clean: true,
      isolation: { tier: 'thread', pidNamespace: false, permissionModel: false },
    });
    expect(report.tags[0]).toMatchObject({ verdict: 'ok', example: { status: 200 } });
    expect(code).toBe(0);
  });

  it.each([
    [['check'], 2, /check: missing <package-dir>/],
    [['check', 'a', 'b'], 2, /unexpected argument "b"/],
    [['check', '.', '--timeout', 'soon'], 2, /--timeout must be a positive whole number of milliseconds/],
    [
      ['check', '.', '--isolation', 'vm'],
      2,
      /^plurnk-execs check: --isolation must be process or thread; received "vm"/,
    ],
  ])('refuses %j naming what was wrong', async (argv, exit, message) => {
    const { code, stderr } = await runCli(argv);
    expect(code).toBe(exit);
    expect(stderr).toMatch(message);
  });

  it('says so when the directory holds no exec package, and exits 1', async () => {
    const dir = scratchDir('check-not-a-leaf');
    writeFileSync(join(dir, 'package.json'), '{"name":"plain"}');
    const { code, stderr } = await runCli(['check', dir]);
    expect(code).toBe(1);
    expect(stderr).toBe(
      `plurnk-execs check: ${dir} holds no exec package: its package.json is missing, unreadable, or does not declare "plurnk": { "kind": "exec" }\n`,
    );
  });

  it('resolves a relative package directory against the current directory', async () => {
    const { code, stdout } = await runCli(['check', 'fixtures/zoo/healthy', '--json'], { cwd: REPO });
    expect(code).toBe(0);
    expect((JSON.parse(stdout) as CheckReport).package.dir).toBe(join(REPO, 'fixtures/zoo/healthy'));
  });
});

import { randomUUID } from 'node:crypto';
import { mkdirSync, readdirSync, symlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import type { HostStats } from '../../../src/host/index.js';
import { INTERPRETERS, isInstalled, missingDetail } from '../../helpers/interpreters.js';
import { HOST_FIXTURES } from '../../helpers/fixture-discovery.js';
import { survivorsAfter } from '../../helpers/survivors.js';
import { runCli, startCli } from '../../helpers/run-cli.js';
import { scratchDir } from '../../helpers/scratch.js';
import { detectPidNamespace } from '../../../src/engine/engine-command.js';
import { detectInit } from '../../../src/engine/namespace-init.js';
import type { Isolation } from '../../../src/host/index.js';

const BUILT_IN = [
  'sh',
  'bash',
  'node',
  'python',
  'python3',
  'perl',
  'ruby',
  'php',
  'lua',
  'deno',
  'bun',
  'tcl',
  'bc',
  'awk',
  'git',
  'jq',
  'sqlite',
  'wat',
  'wasm',
];

/** A project directory whose node_modules holds the named host fixtures. */
function projectWith(fixtures: string[]): string {
  const dir = scratchDir('execs-cli');
  mkdirSync(join(dir, 'node_modules'));
  for (const name of fixtures) symlinkSync(join(HOST_FIXTURES, name), join(dir, 'node_modules', name));
  return dir;
}

describe('plurnk-execs probe', () => {
  it('boots the built-in leaves and reports every tag as JSON', async () => {
    const { code, stdout } = await runCli(['probe', '--json']);
    expect(code).toBe(0);
    const report = JSON.parse(stdout) as {
      bootMs: number;
      cores: number;
      node: string;
      isolation: Isolation;
      tags: { tag: string; package: string; available: boolean; detail: string | null; probeMs: number }[];
    };
    expect(report.tags.map((row) => row.tag).sort()).toEqual([...BUILT_IN].sort());
    expect(report.node).toBe(process.version);
    expect(report.bootMs).toBeGreaterThan(0);
    // The process tier is the default, and the report says what containment it measured.
    // The namespace's init reports what it reaped where it counts (Perl).
    const counted = detectPidNamespace() !== null && detectInit() === 'perl';
    const reaped = counted ? { zombiesReaped: expect.any(Number) } : {};
    const contained = { pidNamespace: detectPidNamespace() !== null, permissionModel: true, ...reaped };
    const { capabilities, fsView, cgroup, network, missing, ...flat } = report.isolation;
    // One engine per built-in leaf package, each measured on its own, each with the sandbox summarized.
    expect(flat).toEqual({
      tier: 'process',
      ...contained,
      engines: ['common', 'git', 'jq', 'sqlite', 'wasm'].map((leaf) => ({
        packages: [`@plurnk/plurnk-execs-${leaf}`],
        tags: report.tags.filter((row) => row.package === `@plurnk/plurnk-execs-${leaf}`).map((row) => row.tag),
        pid: expect.any(Number),
        ...contained,
        ...{ capabilities, fsView, cgroup, network, missing },
      })),
    });
    // And the sandbox's layers, each in effect or said missing: the network is shared by default.
    expect({ capabilities, fsView, cgroup: cgroup === undefined, network }).toEqual({
      capabilities: expect.stringMatching(/^(none|inherited)$/),
      fsView: expect.stringMatching(/^(read-only|open)$/),
      cgroup: false,
      network: 'shared',
    });
    expect(missing?.network).toMatch(/^permissions\.network is true/);
    const row = (tag: string) => report.tags.find((r) => r.tag === tag)!;
    expect(row('sh')).toMatchObject({ package: '@plurnk/plurnk-execs-common', available: true });
    expect(row('jq')).toMatchObject({
      package: '@plurnk/plurnk-execs-jq',
      available: true,
      detail: 'jq-1.8.2 (jq-wasm, stack +16 MiB)',
    });
    // Every interpreter: available where installed, else unavailable with what to install.
    for (const tag of Object.keys(INTERPRETERS)) {
      if (isInstalled(tag)) expect(row(tag)).toMatchObject({ available: true });
      else expect(row(tag)).toMatchObject({ available: false, detail: missingDetail(tag) });
    }
    // What the host held after its boot (host.stats()): every tag, and the engines, as isolation() lists them.
    const { stats } = JSON.parse(stdout) as { stats: HostStats };
    expect(Object.keys(stats.tags).sort()).toEqual([...BUILT_IN].sort());
    expect(stats.tier).toBe('process');
    expect(stats.engines.map(({ packages, pid }) => ({ packages, pid }))).toEqual(
      report.isolation.engines!.map(({ packages, pid }) => ({ packages, pid })),
    );
  });

  it('prints a table with the boot total', async () => {
    const { code, stdout } = await runCli(['probe']);
    expect(code).toBe(0);
    const lines = stdout.trimEnd().split('\n');
    expect(lines[0]).toMatch(/^TAG\s+PACKAGE\s+AVAILABLE\s+PROBE\s+DETAIL$/);
    expect(lines.find((line) => line.startsWith('git '))).toMatch(
      /@plurnk\/plurnk-execs-git\s+yes\s+\d+ ms\s+git version/,
    );
    expect(lines.at(-1)).toMatch(/^booted 19 tags \(\d+ available\) in \d+ ms$/);
  });

  it('shows a progress line on stderr while a slow probe holds the boot', async () => {
    const { code, stdout, stderr } = await runCli(['probe', '--timeout', '1500'], {
      cwd: projectWith(['exec-probe-hangs', 'exec-echo']),
    });
    expect(code).toBe(0);
    // Which tags are still pending when the line is printed depends on the machine; that it is printed does not.
    expect(stderr).toMatch(/^probing 5 tags: \d done, waiting for [a-z-]+/m);
    expect(stdout).toMatch(/probe-hangs\s+exec-probe-hangs\s+no\s+\d+ ms\s+probe exceeded 1500ms/);
  });

  it('boots the process tier by default, the thread tier with --isolation thread, and says which is in effect', async () => {
    const cwd = projectWith(['exec-echo']);
    const yes = detectPidNamespace() === null ? 'NO' : 'yes';
    const processLine = `isolation: process tier · PID namespace ${yes} · permission model yes\n`;
    // Then one line per engine: here the one package's.
    const engineLine = new RegExp(
      `^  engine of exec-echo \\(4 tags\\) · pid \\d+ · PID namespace ${yes} · permission model yes( · reaped \\d+)?$`,
      'm',
    );
    for (const argv of [['probe'], ['probe', '--isolation', 'process']]) {
      const { code, stdout } = await runCli(argv, { cwd });
      expect(code).toBe(0);
      expect(stdout).toContain(processLine);
      // The engine's sandbox, layer by layer, and why the network is shared (the default).
      expect(stdout).toMatch(
        /^sandbox: capabilities (none|inherited) · filesystem (read-only|open) · cgroup .+ · network shared$/m,
      );
      expect(stdout).toMatch(/^ {2}network: permissions\.network is true \(the default\)/m);
      expect(stdout).toMatch(engineLine);
      expect(stdout).toMatch(/^echo\s+exec-echo\s+yes/m);
    }
    const thread = await runCli(['probe', '--isolation', 'thread'], { cwd });
    expect(thread.code).toBe(0);
    expect(thread.stdout).toContain('isolation: thread tier (the leaves run in this process)\n');
    expect(thread.stdout).toMatch(/^echo\s+exec-echo\s+yes/m);
  });

  it.each([
    [['probe', '--isolation', 'vm'], /^plurnk-execs probe: --isolation must be process or thread; received "vm"/],
    [['probe', '--bogus'], /unknown flag --bogus/],
    [['probe', '--timeout', 'soon'], /--timeout must be a positive whole number of milliseconds; received "soon"/],
    [['probe', '--timeout'], /flag --timeout needs a value/],
    [['probe', 'extra'], /unexpected argument "extra"/],
  ])('refuses %j naming what was wrong', async (argv, message) => {
    const { code, stderr } = await runCli(argv);
    expect(code).toBe(2);
    expect(stderr).toMatch(message);
    expect(stderr).toContain('See: plurnk-execs probe --help');
  });
});

// Each exec boots the tag it runs, in an engine process by default: a loaded machine was seen
// to take 47 s for one when it booted every built-in tag, past the default 30 s.
describe('plurnk-execs exec', { timeout: 90_000 }, () => {
  it('loads only the leaf of the tag it runs, where probe loads every installed one', async () => {
    const cwd = projectWith(['exec-echo', 'exec-marks-its-load']);
    const marks = scratchDir('execs-cli-marks');
    const env = { ...process.env, MARKS_ITS_LOAD_DIR: marks };
    const run = await runCli(['exec', 'echo', 'hi', '--isolation', 'thread'], { cwd, env });
    expect(run.code).toBe(0);
    expect(readdirSync(marks)).toEqual([]);
    // The same project probed: the other leaf is loaded, so the mark would have shown.
    const probe = await runCli(['probe', '--isolation', 'thread'], { cwd, env });
    expect(probe.code).toBe(0);
    expect(readdirSync(marks)).not.toEqual([]);
  });

  it('streams stdout and stderr to their own streams and exits 0', async () => {
    const { code, stdout, stderr } = await runCli(['exec', 'sh', 'echo hello; echo oops >&2']);
    expect(code).toBe(0);
    expect(stdout).toBe('hello\n');
    expect(stderr).toMatch(/^oops\n── sh 200 · effect host · \d+ ms\n$/);
  });

  it('prints the host’s snapshot as JSON on stderr after the run with --stats', async () => {
    const { code, stdout, stderr } = await runCli(['exec', 'sh', 'echo hi', '--stats', '--isolation', 'thread']);
    expect(code).toBe(0);
    expect(stdout).toBe('hi\n');
    const [status, ...json] = stderr.split('\n');
    expect(status).toMatch(/^── sh 200 · effect host · \d+ ms$/);
    const stats = JSON.parse(json.join('\n')) as HostStats;
    expect(stats.tier).toBe('thread');
    expect(stats.runs.byOutcome.ok).toBe(1);
    expect(stats.tags.sh!.runs.byOutcome.ok).toBe(1);
    expect(stats.tags.sh!.latencyMs.count).toBe(1);
  });

  it('exits with the subprocess exit code and prints the Problem', async () => {
    const { code, stderr } = await runCli(['exec', 'sh', 'exit 3']);
    expect(code).toBe(3);
    expect(stderr).toContain('── sh 500');
    expect(stderr).toContain('problem: Nonzero exit (https://problems.plurnk.xyz/executor/subprocess/nonzero-exit)');
    expect(stderr).toContain("  detail: 'sh' exited with code 3.");
  });

  it('labels the lines of other channels', async () => {
    const dir = scratchDir('execs-cli-jq');
    writeFileSync(join(dir, 'in.json'), '{"a":[1,2]}');
    const { code, stdout } = await runCli(['exec', 'jq', '.a[]', '--target', 'in.json', '--cwd', dir]);
    expect(code).toBe(0);
    expect(stdout).toBe('results│ 1\nresults│ 2\n');
  });

  it('reads a body of "-" from standard input', async () => {
    const { code, stdout } = await runCli(['exec', 'sh', '-'], { input: 'echo $((6 * 7))\n' });
    expect(code).toBe(0);
    expect(stdout).toBe('42\n');
  });

  it('reports an unknown tag with the available ones and exits 1', async () => {
    const { code, stderr } = await runCli(['exec', 'cobol', 'DISPLAY 1.']);
    expect(code).toBe(1);
    expect(stderr).toContain('problem: Runtime not registered');
    expect(stderr).toMatch(/available: .*\bsh\b/);
  });

  // The run's processes carry a marker in their environment: in a PID namespace `$$` is not
  // their pid out here, but the marker finds them from this process in either tier.
  const marked = (body: string) => {
    const marker = randomUUID();
    return { marker, body: `export ZOO_RUN=${marker}; ${body}` };
  };

  it('settles 504 at --timeout and leaves nothing running', async () => {
    const { marker, body } = marked('echo started; sleep 1000');
    const { code, stdout, stderr } = await runCli(['exec', 'sh', body, '--timeout', '300']);
    expect(code).toBe(1);
    expect(stdout).toBe('started\n');
    expect(stderr).toContain('── sh 504');
    expect(await survivorsAfter([{ marker }])).toEqual([]);
  });

  it('cancels the run on Ctrl-C with SIGHUP semantics and exits 130', async () => {
    const { marker, body } = marked('echo started; sleep 1000');
    const run = startCli(['exec', 'sh', body]);
    await run.seen('stdout', '\n');
    run.kill('SIGINT');
    const { code, stderr } = await run.done;
    expect(code).toBe(130);
    expect(stderr).toContain('cancelling (Ctrl-C again to kill)');
    expect(stderr).toContain('── sh 499');
    expect(await survivorsAfter([{ marker }])).toEqual([]);
  });

  it('kills on the second Ctrl-C a run that ignores the first', async () => {
    const { marker, body } = marked("trap '' HUP; echo started; sleep 1000");
    const run = startCli(['exec', 'sh', body]);
    await run.seen('stdout', '\n');
    run.kill('SIGINT');
    await run.seen('stderr', 'cancelling');
    run.kill('SIGINT');
    const { code, stderr } = await run.done;
    expect(code).toBe(130);
    expect(stderr).toContain('killing');
    expect(await survivorsAfter([{ marker }])).toEqual([]);
  });

  it('runs an EXEC in the process tier by default, and in this process with --isolation thread', async () => {
    // The engine's environment is built: a variable of the CLI's own reaches a run only in the thread tier.
    const env = { ...process.env, CLI_TIER_MARK: 'inherited' };
    const body = 'echo ${CLI_TIER_MARK:-built}; cat /proc/1/cmdline';
    const byDefault = await runCli(['exec', 'sh', body], { env });
    expect(byDefault.code).toBe(0);
    expect(byDefault.stdout).toMatch(/^built\n/);
    // Pid 1 there is the engine namespace's init (Perl's or sh's), which names itself so.
    if (detectPidNamespace() !== null) expect(byDefault.stdout).toContain('plurnk-execs-init');
    const thread = await runCli(['exec', 'sh', body, '--isolation', 'thread'], { env });
    expect(thread.code).toBe(0);
    expect(thread.stdout).toMatch(/^inherited\n/);
    expect(thread.stdout).not.toContain('plurnk-execs-init');
    // Generous for a loaded machine: each run starts an engine process.
  }, 90_000);

  it.each([
    [['exec'], /exec: missing <tag>/],
    [['exec', 'sh', 'a', 'b'], /unexpected argument "b"/],
    [['exec', 'sh', 'true', '--target'], /flag --target needs a value/],
    [['exec', 'sh', 'true', '--timeout', '0'], /--timeout must be a positive whole number/],
    [
      ['exec', 'sh', 'true', '--isolation', 'vm'],
      /^plurnk-execs exec: --isolation must be process or thread; received "vm"/,
    ],
  ])('refuses %j naming what was wrong', async (argv, message) => {
    const { code, stderr } = await runCli(argv);
    expect(code).toBe(2);
    expect(stderr).toMatch(message);
  });
});

describe('plurnk-execs bench', () => {
  it('runs a named scenario and reports each figure against its same-run baseline as JSON', async () => {
    const { code, stdout, stderr } = await runCli(['bench', 'stream', '--quick', '--json']);
    expect(code).toBe(0);
    const report = JSON.parse(stdout) as {
      machine: { cores: number; node: string };
      scenarios: { name: string; rows: { name: string; ratio: number | null; baseline: { name: string } | null }[] }[];
    };
    expect(report.machine.node).toBe(process.version);
    expect(report.scenarios.map((scenario) => scenario.name)).toEqual(['stream']);
    for (const row of report.scenarios[0]!.rows) {
      expect(row.baseline?.name).toMatch(/raw postMessage|raw IPC/);
      expect(row.ratio).toBeGreaterThan(0);
    }
    expect(stderr).toMatch(/^stream: /m);
    expect((JSON.parse(stdout) as { isolation: string }).isolation).toBe('process');
    // Every write crosses the engine's pipe: on a loaded machine the process tier's stream takes a while.
  }, 120_000);

  it('measures the thread tier with --isolation thread, and refuses any other tier', async () => {
    const { code, stdout } = await runCli(['bench', 'dispatch', '--quick', '--isolation', 'thread']);
    expect(code).toBe(0);
    expect(stdout.split('\n')[0]).toContain('; thread tier; ');
    const bad = await runCli(['bench', 'dispatch', '--isolation', 'process,thread']);
    expect(bad.code).toBe(2);
    expect(bad.stderr).toMatch(/^plurnk-execs bench: --isolation must be process or thread; received "process,thread"/);
    expect(bad.stdout).toBe('');
  });

  it('times `exec sh` end to end in each tier against a bare Node start, the default tier under its 1 s bound', async () => {
    const { code, stdout } = await runCli(['bench', 'cli', '--quick', '--json']);
    expect(code).toBe(0);
    const [scenario] = (
      JSON.parse(stdout) as {
        scenarios: {
          name: string;
          rows: {
            name: string;
            subject: { samples: number };
            ratio: number;
            baseline: { name: string };
            target?: { on: string; op: string; value: number };
          }[];
        }[];
      }
    ).scenarios;
    expect(scenario!.name).toBe('cli');
    const [processRow, threadRow] = scenario!.rows;
    expect(scenario!.rows.map((row) => row.name)).toEqual([
      `plurnk-execs exec sh 'echo hi' (process tier, the default)`,
      `plurnk-execs exec sh 'echo hi' --isolation thread`,
    ]);
    for (const row of scenario!.rows) {
      expect(row.baseline.name).toBe(`bare node -e ''`);
      expect(row.subject.samples).toBe(4);
      // A run of the CLI is a Node start and more: it can only take longer than the bare start.
      expect(row.ratio).toBeGreaterThan(1);
    }
    // The bound is on the wall time a person waits, not on the ratio; whether it is met is the bench's to say.
    expect(processRow!.target).toMatchObject({ on: 'subject', op: '<=', value: 1000 });
    expect(threadRow!.target).toBeUndefined();
  }, 120_000);

  it('fails the cli scenario by name where no installed leaf declares sh', async () => {
    const empty = scratchDir('bench-cli');
    const { code, stdout, stderr } = await runCli(['bench', 'cli', '--quick', '--json'], { cwd: empty });
    expect(code).toBe(1);
    expect(stderr).toContain(`cli: failed: cli: no leaf installed under ${empty} declares sh`);
    const [scenario] = (JSON.parse(stdout) as { scenarios: { name: string; rows: unknown[]; failed?: string }[] })
      .scenarios;
    expect(scenario).toMatchObject({ name: 'cli', rows: [] });
    expect(scenario!.failed).toContain('declares sh');
  });

  it('refuses an unknown scenario before running anything', async () => {
    const { code, stderr, stdout } = await runCli(['bench', 'warp-speed']);
    expect(code).toBe(2);
    expect(stderr).toContain(
      'unknown benchmark scenario "warp-speed": choose from probe, dispatch, stream, subprocess, recycle, memory, flood',
    );
    expect(stdout).toBe('');
  });
});

describe('plurnk-execs doc, help and version', () => {
  it('prints the tool document of a tag', async () => {
    const { code, stdout } = await runCli(['doc', 'sqlite']);
    expect(code).toBe(0);
    expect(stdout).toMatch(/^# sqlite\n\n## Summary\n/);
    expect(stdout).toContain('## Invocation');
  });

  it('prints a tool family document and one document per exact tool', async () => {
    const { code, stdout } = await runCli(['doc', 'text'], { cwd: projectWith(['exec-tool-family']) });
    expect(code).toBe(0);
    const documents = stdout.split('\n\n---\n\n');
    expect(documents).toHaveLength(3);
    expect(documents[0]).toMatch(/^# text\n/);
    expect(documents[0]).toContain('A small family of exact text tools.');
    expect(documents[1]).toContain('upper');
    expect(documents[1]).toContain('Upper-case the body.');
    expect(documents[2]).toContain('Write a fixed stamp; takes no body.');
  });

  it('names the installed tags when the tag is unknown', async () => {
    const { code, stderr } = await runCli(['doc', 'cobol']);
    expect(code).toBe(1);
    expect(stderr).toMatch(/runtime tag "cobol" is not installed; installed: awk, bash, bc,/);
  });

  it.each([['--help'], ['probe', '--help'], ['exec', '-h'], ['doc', '--help'], ['bench', '--help']])(
    'prints usage for %j and exits 0',
    async (...argv) => {
      const { code, stdout } = await runCli(argv);
      expect(code).toBe(0);
      expect(stdout).toMatch(/^Usage: plurnk-execs /);
    },
  );

  it('refuses an unknown command and a bare invocation with exit 2', async () => {
    expect(await runCli(['frobnicate'])).toMatchObject({
      code: 2,
      stderr: expect.stringContaining('unknown command "frobnicate"; commands: probe, exec, doc, check, bench'),
    });
    expect(await runCli([])).toMatchObject({
      code: 2,
      stderr: expect.stringContaining('Usage: plurnk-execs <command>'),
    });
  });

  it('prints the package version', async () => {
    const { code, stdout } = await runCli(['--version']);
    expect(code).toBe(0);
    expect(stdout).toBe('1.5.0\n');
  });
});

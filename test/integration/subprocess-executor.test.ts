import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { onProcessGroup, signalGroup, SubprocessExecutor, tokenizeArgv, type SpawnArgs } from '../../src/index.js';
import { recordingArgs } from '../helpers/recording-args.js';
import { survivorsAfter } from '../helpers/survivors.js';
import { scratchDir } from '../helpers/scratch.js';

const sh = new SubprocessExecutor({ runtime: 'sh', glyph: '$' });

let groups: number[] = [];
let unsubscribe: () => void;
beforeEach(() => {
  groups = [];
  unsubscribe = onProcessGroup((pgid) => groups.push(pgid));
});
afterEach(() => {
  unsubscribe();
  // A failed test must not leave its processes behind for the next one (or the machine).
  for (const pgid of groups) signalGroup(pgid, 'SIGKILL');
});

/** Runs `body` (and `target`) under sh and waits for the result. */
function runSh(body: string, fields: Partial<Parameters<typeof recordingArgs>[0]> = {}) {
  const { args, recording } = recordingArgs({ runtime: 'sh', body, ...fields });
  return { recording, done: sh.run(args) };
}

describe('SubprocessExecutor', () => {
  it('declares stdout then stderr as text/stream and classifies every target as host', () => {
    expect(Object.entries(sh.channels)).toEqual([
      ['stdout', { mimetype: 'text/stream' }],
      ['stderr', { mimetype: 'text/stream' }],
    ]);
    expect(sh.defaultChannel).toBe('stdout');
    expect(sh.effect(null)).toBe('host');
  });

  it('runs echo hello to a 200 with stdout and both channels closed', async () => {
    const { recording, done } = runSh('echo hello');
    expect(await done).toEqual({ status: 200, exitCode: 0 });
    expect(recording.text('stdout')).toBe('hello\n');
    expect(recording.state('stdout')).toBe('closed');
    expect(recording.state('stderr')).toBe('closed');
  });

  it('turns exit 3 into a 500 nonzero-exit that points at stdout and stderr', async () => {
    const { recording, done } = runSh('echo partial; echo oops >&2; exit 3');
    const result = await done;
    expect(result.status).toBe(500);
    expect(result.exitCode).toBe(3);
    expect(result.problem?.type).toMatch(/\/nonzero-exit$/);
    expect(result.problem).toMatchObject({
      detail: "'sh' exited with code 3.",
      recovery: 'Inspect the stdout and stderr channels.',
      runtime: 'sh',
      stage: 'execution',
      retryable: false,
    });
    expect(recording.text('stdout')).toBe('partial\n');
    expect(recording.text('stderr')).toBe('oops\n');
    expect(recording.state('stdout')).toBe('errored');
    expect(recording.state('stderr')).toBe('errored');
  });

  it('reports a binary that does not exist as spawn-failed', async () => {
    const bogus = new SubprocessExecutor({ runtime: 'no-such-interpreter-xyz', glyph: '' });
    const { args, recording } = recordingArgs({ runtime: 'no-such-interpreter-xyz', body: '1' });
    const result = await bogus.run(args);
    expect(result.status).toBe(500);
    expect(result.problem?.type).toMatch(/\/spawn-failed$/);
    expect(result.problem?.detail).toContain('no-such-interpreter-xyz');
    expect(recording.state('stdout')).toBe('errored');
  });

  it("runs in the given cwd and refuses one that does not exist as the caller's 400", async () => {
    const dir = scratchDir('execs-cwd');
    const ok = runSh('pwd', { cwd: dir });
    expect((await ok.done).status).toBe(200);
    expect(ok.recording.text('stdout')).toBe(`${dir}\n`);

    const missing = runSh('pwd', { cwd: join(dir, 'missing') });
    const result = await missing.done;
    expect(result.problem?.type).toMatch(/\/cwd-not-found$/);
    expect(result.status).toBe(400);
    expect(result.problem?.detail).toContain(join(dir, 'missing'));
    expect(groups).toHaveLength(1);
  });

  it('uses a supplied env verbatim, so host variables are hidden', async () => {
    vi.stubEnv('PLURNK_TEST_HOST_ONLY', 'visible');
    try {
      const inherited = runSh('echo "[$PLURNK_TEST_HOST_ONLY]"');
      await inherited.done;
      expect(inherited.recording.text('stdout')).toBe('[visible]\n');
      const scoped = runSh('echo "[$PLURNK_TEST_HOST_ONLY][$ONLY_HERE]"', {
        env: { PATH: process.env.PATH, ONLY_HERE: 'yes' },
      });
      await scoped.done;
      expect(scoped.recording.text('stdout')).toBe('[][yes]\n');
    } finally {
      vi.unstubAllEnvs();
    }
  });

  it('gives cat an empty stdin when there is no body for it, so it does not hang', async () => {
    const { recording, done } = runSh('cat');
    expect((await done).status).toBe(200);
    expect(recording.text('stdout')).toBe('');
    const asTarget = runSh('', { target: 'cat' });
    expect((await asTarget.done).status).toBe(200);
  });

  it('runs a target as the program with the body on its stdin', async () => {
    const { recording, done } = runSh('hello from stdin', { target: 'tr a-z A-Z' });
    expect((await done).status).toBe(200);
    expect(recording.text('stdout')).toBe('HELLO FROM STDIN');

    // Any other runtime runs the target as a script file (node: the one interpreter every machine running these tests has).
    const dir = scratchDir('execs-script');
    writeFileSync(
      join(dir, 'echo.js'),
      "let s = ''; process.stdin.on('data', (d) => (s += d)).on('end', () => console.log(s.toUpperCase()));\n",
    );
    const node = new SubprocessExecutor({ runtime: 'node', glyph: '' });
    const run = recordingArgs({ runtime: 'node', body: 'abc', target: 'echo.js', cwd: dir });
    expect(await node.run(run.args)).toEqual({ status: 200, exitCode: 0 });
    expect(run.recording.text('stdout')).toBe('ABC\n');
  });

  it('reports the process group it starts, whose id is the leader pid', async () => {
    const { recording, done } = runSh('echo $$');
    await done;
    expect(groups).toEqual([Number(recording.text('stdout').trim())]);
  });

  it('streams output while the process runs, and an abort mid-run settles 499 with no survivor', async () => {
    const controller = new AbortController();
    const { recording, done } = runSh('echo started; sleep 1000 & sleep 1000', { signal: controller.signal });
    await recording.seen('stdout', 'started\n');
    controller.abort();
    const result = await done;
    expect(result.status).toBe(499);
    expect(result.problem?.type).toBe('https://problems.plurnk.xyz/executor/subprocess/cancelled');
    expect(result.problem?.detail).toBe("Execution of 'sh' was cancelled.");
    // As 1.x: the leader ended by a signal has no exit code.
    expect(result.exitCode).toBe(-1);
    expect(recording.state('stdout')).toBe('errored');
    expect(await survivorsAfter(groups)).toEqual([]);
  });

  it('delivers a caller-supplied signal exactly once, instead of SIGHUP', async () => {
    const controller = new AbortController();
    const body = "trap 'echo got-hup' HUP; trap 'echo got-usr1; exit 7' USR1; echo ready; while :; do sleep 0.05; done";
    const { recording, done } = runSh(body, { signal: controller.signal });
    await recording.seen('stdout', 'ready');
    controller.abort({ signal: 'SIGUSR1' });
    const result = await done;
    expect(result.status).toBe(499);
    expect(result.exitCode).toBe(7);
    expect(recording.text('stdout')).toBe('ready\ngot-usr1\n');
  });

  it('escalates housekeeping to SIGKILL after the grace when the group ignores SIGHUP', async () => {
    const controller = new AbortController();
    const { recording, done } = runSh("trap '' HUP; echo ready; sleep 1000", { signal: controller.signal });
    await recording.seen('stdout', 'ready\n');
    controller.abort({ housekeeping: true, graceMs: 200 });
    const result = await done;
    // Settling at all proves the SIGKILL: the group ignores SIGHUP and would sleep on.
    expect(result).toMatchObject({ status: 499, exitCode: -1 });
    expect(await survivorsAfter(groups)).toEqual([]);
  });

  it('returns 499 for an already-aborted signal without starting anything', async () => {
    const controller = new AbortController();
    controller.abort();
    const { recording, done } = runSh('touch should-not-exist', { signal: controller.signal });
    const result = await done;
    expect(result).toMatchObject({
      status: 499,
      exitCode: -1,
      problem: { detail: "Execution of 'sh' was cancelled before it started.", stage: 'execution' },
    });
    expect(result.problem?.type).toMatch(/\/cancelled$/);
    expect(groups).toEqual([]);
    expect(recording.state('stdout')).toBe('errored');
  });

  it('settles 200 every time a large stdin meets a program that reads none of it', async () => {
    const body = 'x'.repeat(1 << 20);
    const statuses: number[] = [];
    for (let i = 0; i < 10; i++) statuses.push((await runSh(body, { target: 'head -c 0' }).done).status);
    expect(statuses).toEqual(Array(10).fill(200));
  });

  it('does not wait for a background grandchild that keeps the pipes open', async () => {
    const { recording, done } = runSh('sleep 1000 & echo leader-done');
    expect((await done).status).toBe(200);
    expect(recording.text('stdout')).toBe('leader-done\n');
    // The orphaned sleep is still in the reported group: reaping it is the host's job.
    expect(groups).toHaveLength(1);
    for (const pgid of groups) process.kill(-pgid, 'SIGKILL');
    expect(await survivorsAfter(groups)).toEqual([]);
  });

  it('turns a CommandSyntaxError from the recipe into 400 invalid-command, and lets other throws through', async () => {
    class Tokenizing extends SubprocessExecutor {
      override spawnArgs(_runtime: string, body: string): SpawnArgs {
        const [cmd = 'true', ...args] = tokenizeArgv(body);
        if (cmd === 'explode') throw new TypeError('recipe bug');
        return { cmd, args, useShell: false };
      }
    }
    const leaf = new Tokenizing({ runtime: 'tok', glyph: '' });
    const bad = recordingArgs({ runtime: 'tok', body: "echo 'unterminated" });
    const result = await leaf.run(bad.args);
    expect(result).toMatchObject({ status: 400, exitCode: -1, problem: { status: 400 } });
    expect(result.problem?.type).toMatch(/\/invalid-command$/);
    expect(result.problem?.detail).toBe(
      `Could not parse the 'tok' command: unterminated single quote at offset 5 in "echo 'unterminated".`,
    );
    // As 1.x: tokenizeArgv gives no advice, so the Problem carries no recovery.
    expect(result.problem).toMatchObject({ runtime: 'tok', stage: 'input-validation', retryable: false });
    expect(result.problem).not.toHaveProperty('recovery');
    expect(groups).toEqual([]);

    await expect(leaf.run(recordingArgs({ runtime: 'tok', body: 'explode now' }).args)).rejects.toThrow('recipe bug');
    const good = recordingArgs({ runtime: 'tok', body: "printf '%s-%s' 'a b' c" });
    expect((await leaf.run(good.args)).status).toBe(200);
    expect(good.recording.text('stdout')).toBe('a b-c');
  });

  it('fails with invalid-configuration before spawning when the error detail limit is missing', async () => {
    vi.stubEnv('PLURNK_EXECS_ERROR_DETAIL_LIMIT', '');
    try {
      const result = await runSh('echo hi').done;
      expect(result.status).toBe(500);
      expect(result.problem?.type).toMatch(/\/invalid-configuration$/);
      expect(groups).toEqual([]);
    } finally {
      vi.unstubAllEnvs();
    }
  });

  it('runs a shell recipe through the system shell when useShell is set', async () => {
    class Shelled extends SubprocessExecutor {
      override spawnArgs(_runtime: string, body: string): SpawnArgs {
        return { cmd: body, args: [], useShell: true };
      }
    }
    const { args, recording } = recordingArgs({ runtime: 'shelled', body: 'echo a | tr a b' });
    expect((await new Shelled({ runtime: 'shelled', glyph: '' }).run(args)).status).toBe(200);
    expect(recording.text('stdout')).toBe('b\n');
  });
});

import { execFileSync } from 'node:child_process';
import { existsSync, realpathSync } from 'node:fs';
import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { executorFor, problemCodeOf, runInProcess, runTag } from '../leaf-harness.js';

let dir: string;
let repo: string;
/** A clean environment for the child: PATH plus a committer identity, nothing repository-specific. */
let env: NodeJS.ProcessEnv;

beforeAll(async () => {
  dir = realpathSync(await mkdtemp(join(tmpdir(), 'leaf-git-')));
  repo = join(dir, 'repo');
  await mkdir(repo);
  env = {
    PATH: process.env.PATH,
    HOME: dir,
    GIT_AUTHOR_NAME: 'Leaf Test',
    GIT_AUTHOR_EMAIL: 'leaf@test',
    GIT_COMMITTER_NAME: 'Leaf Test',
    GIT_COMMITTER_EMAIL: 'leaf@test',
  };
  const git = (...args: string[]) =>
    execFileSync('git', ['-C', repo, ...args], { env: env as NodeJS.ProcessEnv, stdio: 'pipe' });
  git('init', '-q', '-b', 'main');
  await writeFile(join(repo, 'notes.txt'), 'first\n');
  git('add', 'notes.txt');
  git('commit', '-q', '-m', 'first commit');
});
afterAll(async () => {
  await rm(dir, { recursive: true, force: true });
});
afterEach(() => {
  vi.unstubAllEnvs();
});

describe('git leaf', () => {
  it('runs git -C TARGET with the tokenized body and streams its output', async () => {
    const run = await runTag('git', { body: 'log --format=%s', target: repo, env });
    expect(run.result).toEqual({ status: 200, exitCode: 0 });
    expect(run.channel('stdout')).toEqual({ mimetype: 'text/stream', state: 'closed', text: 'first commit\n' });
  });

  it('works in the run directory when there is no target', async () => {
    const run = await runTag('git', { body: 'rev-parse --show-toplevel', cwd: repo, env });
    expect(run.channel('stdout').text).toBe(`${repo}\n`);
  });

  it('passes quoted shell characters to git as one literal argument', async () => {
    const run = await runTag('git', { body: `log -1 --format="%s && more | still; <quoted>"`, target: repo, env });
    expect(run.channel('stdout').text).toBe('first commit && more | still; <quoted>\n');
  });

  it.each([
    ['status && log', '"&&"'],
    ['status || true', '"||"'],
    ['status; log', '";"'],
    ['log | head', '"|"'],
    ['log > out.txt', '">"'],
    ['log < in.txt', '"<"'],
    ['status &', '"&"'],
    ['log $(whoami)', '"$("'],
    ['log "$(whoami)"', '"$("'],
    ['log `whoami`', '"`"'],
    ['status\nlog', 'a line break'],
  ])('refuses shell syntax %j with 400 invalid-command and spawns nothing', async (body, found) => {
    const run = await runTag('git', { body, target: repo, env });
    expect(run.result.status).toBe(400);
    expect(problemCodeOf(run.result)).toBe('invalid-command');
    expect(run.result.problem?.detail).toContain(`found ${found}`);
    expect(run.result.problem?.recovery).toMatch(/without the leading git.*sh tag/);
    expect(run.channel('stdout')).toMatchObject({ state: 'errored', text: '' });
    expect(existsSync(join(repo, 'out.txt'))).toBe(false);
  });

  it('refuses a body that starts with git with 400 invalid-command', async () => {
    const run = await runTag('git', { body: 'git status', target: repo, env });
    expect([run.result.status, problemCodeOf(run.result)]).toEqual([400, 'invalid-command']);
    expect(run.result.problem?.detail).toMatch(/starts with "git"/);
  });

  it('refuses a blank body: the host before admission, the leaf itself when called directly', async () => {
    const run = await runTag('git', { body: '   ', target: repo, env });
    expect([run.result.status, problemCodeOf(run.result)]).toEqual([400, 'body-required']);
    const { result } = await runInProcess(await executorFor('git'), 'git', { body: '   ', target: repo, env });
    expect([result.status, problemCodeOf(result)]).toEqual([400, 'invalid-command']);
    expect(result.problem?.detail).toMatch(/no git arguments/);
  });

  it('refuses an unterminated quote with a quoting recovery hint', async () => {
    const run = await runTag('git', { body: 'commit -m "half', target: repo, env });
    expect([run.result.status, problemCodeOf(run.result)]).toEqual([400, 'invalid-command']);
    expect(run.result.problem?.detail).toMatch(/unterminated double quote/);
    expect(run.result.problem?.recovery).toMatch(/close every quote/);
  });

  it('a failing git command is 500 nonzero-exit with its exit code and stderr', async () => {
    const run = await runTag('git', { body: 'rev-parse --verify no-such-branch', target: repo, env });
    expect(run.result.status).toBe(500);
    expect(run.result.exitCode).toBe(128);
    expect(problemCodeOf(run.result)).toBe('nonzero-exit');
    expect(run.channel('stderr').text).toMatch(/fatal/);
  });

  it('strips repository-identity variables from args.env, so they cannot redirect git', async () => {
    const decoy = {
      GIT_DIR: join(dir, 'nowhere'),
      GIT_WORK_TREE: dir,
      GIT_INDEX_FILE: join(dir, 'index'),
      GIT_CONFIG_COUNT: '1',
      GIT_CONFIG_KEY_0: 'core.bare',
      GIT_CONFIG_VALUE_0: 'true',
      GIT_CEILING_DIRECTORIES: dir,
    };
    const run = await runTag('git', {
      body: 'rev-parse --show-toplevel --is-bare-repository',
      target: repo,
      env: { ...env, ...decoy },
    });
    expect(run.channel('stdout').text).toBe(`${repo}\nfalse\n`);
  });

  // In-process: a host thread copies process.env when it starts, so a stub made after the
  // host booted would never reach the leaf.
  it('strips them from process.env too when the run has no env of its own', async () => {
    vi.stubEnv('GIT_DIR', join(dir, 'nowhere'));
    const { result, recording } = await runInProcess(await executorFor('git'), 'git', {
      body: 'log --format=%s',
      target: repo,
    });
    expect(result).toEqual({ status: 200, exitCode: 0 });
    expect(recording.text('stdout')).toBe('first commit\n');
  });

  it('strips every variable git itself lists as repository-local', async () => {
    const { isRepositoryEnv } = (await import('@plurnk/plurnk-execs-git')) as {
      isRepositoryEnv(name: string): boolean;
    };
    const local = execFileSync('git', ['rev-parse', '--local-env-vars'], { encoding: 'utf8' }).trim().split('\n');
    expect(local.length).toBeGreaterThan(5);
    expect(local.filter((name) => !isRepositoryEnv(name))).toEqual([]);
    expect(['GIT_AUTHOR_NAME', 'GIT_COMMITTER_EMAIL', 'PATH'].filter((name) => isRepositoryEnv(name))).toEqual([]);
  });

  // In-process, so the leaf holds the very object the caller passed (a host run would clone it).
  it('leaves args.env itself untouched', async () => {
    const own = { ...env, GIT_DIR: join(dir, 'nowhere') };
    const { result, recording } = await runInProcess(await executorFor('git'), 'git', {
      body: 'rev-parse --show-toplevel',
      target: repo,
      env: own,
    });
    expect(result).toEqual({ status: 200, exitCode: 0 });
    expect(recording.text('stdout')).toBe(`${repo}\n`);
    expect(own).toEqual({ ...env, GIT_DIR: join(dir, 'nowhere') });
  });

  it('is available with git --version as the detail, and a host effect', async () => {
    const executor = await executorFor('git');
    expect(await executor.probe()).toMatchObject({ available: true, detail: expect.stringMatching(/^git version \d/) });
    expect([executor.effect(null), executor.effect(repo)]).toEqual(['host', 'host']);
  });

  it('is unavailable with an actionable detail when git is not on PATH', async () => {
    vi.stubEnv('PATH', dir);
    expect(await (await executorFor('git')).probe()).toEqual({
      available: false,
      detail: 'git not found on PATH (install: apt-get install git)',
    });
  });

  it('a pre-aborted run is 499 cancelled and runs nothing', async () => {
    const controller = new AbortController();
    controller.abort();
    const run = await runTag('git', { body: 'status', target: repo, env, signal: controller.signal });
    expect([run.result.status, problemCodeOf(run.result)]).toEqual([499, 'cancelled']);
  });
});

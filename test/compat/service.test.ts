// The service side of 1.x compatibility (reference §3): a plurnk-core-shaped consumer boots a
// leaf written the 1.x way through createHost, takes effect() at proposal time, runs the EXEC
// later with that fact, aborts runs, and reads ExecInfo entries.
import { mkdtempSync, readFileSync, realpathSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { createHost, type ExecInfo, type ExecRegistry, type Host } from '../../src/host/index.js';
import { isPlurnkExecsError } from '../../src/index.js';

const ACME = fileURLToPath(new URL('../../fixtures/compat/node_modules/@acme', import.meta.url));
const OLDSTYLE = join(ACME, 'plurnk-execs-oldstyle');
const NEIGHBOUR = join(ACME, 'plurnk-execs-neighbour');
const scratch = realpathSync(mkdtempSync(join(tmpdir(), 'plurnk-compat-service-')));

// The operator's environment: each leaf's own PLURNK_EXECS_<TAG>_* setting, plus one that names no tag.
const ENV = {
  PLURNK_EXECS_ERROR_DETAIL_LIMIT: '512',
  PLURNK_EXECS_OLDSH_GREETING: 'hello from the operator',
  plurnk_execs_oldscript_mode: 'lowercase keys count too',
  PLURNK_EXECS_NEIGHBOUR_COLOR: 'green',
  PLURNK_EXECS_NOBODY_SETTING: 'owned by no installed tag',
};

let host: Host;
beforeAll(async () => {
  host = await createHost({ packageDirs: [OLDSTYLE, NEIGHBOUR], env: ENV, defaultRuntime: 'oldsh' });
});
afterAll(async () => {
  await host?.close();
  rmSync(scratch, { recursive: true, force: true });
});

/** A script file the `oldscript` tag can be pointed at, with no effect() counted yet. */
function scriptFile(name: string): string {
  const path = join(scratch, name);
  writeFileSync(path, 'echo hi\n');
  return path;
}

/** How many times the leaf's effect() ran for `script`, across every thread. */
function effectCalls(script: string): number {
  try {
    return readFileSync(`${script}.effects`, 'utf8').split('\n').filter(Boolean).length;
  } catch {
    return 0;
  }
}

function stdoutJson(out: Awaited<ReturnType<Host['exec']>>): Record<string, unknown> {
  expect(out.result).toEqual({ status: 200 });
  return JSON.parse(out.channels.stdout!.text) as Record<string, unknown>;
}

describe('a leaf written the 1.x way boots and runs through createHost', () => {
  test('ExecInfo entries carry the 1.x fields, legacy tags included', () => {
    const registry: ExecRegistry = host.discovery.registry;
    const oldgit: ExecInfo = registry.get('oldgit')!;
    expect(oldgit).toMatchObject({
      runtime: 'oldgit',
      glyph: '🔀',
      summary: 'oldgit executor from @acme/plurnk-execs-oldstyle',
      details: '',
      packageName: '@acme/plurnk-execs-oldstyle',
      attribution: '@acme/oldstyle',
    });
    expect(oldgit.invocation.example).toEqual({ body: 'status --short' });
    expect(registry.get('oldsh')?.details).toBe('Old-style documentation, inline.');
    expect(registry.get('neighbour')).not.toHaveProperty('attribution');
    expect(registry.get('neighbour')?.details).toBe('');
    expect([...host.discovery.packageAttributions]).toEqual([['@acme/plurnk-execs-oldstyle', ['@acme/oldstyle']]]);
    expect(host.discovery.notices?.map((notice) => [notice.packageName, notice.runtimes])).toEqual([
      ['@acme/plurnk-execs-oldstyle', ['oldgit', 'oldsh', 'oldglyph']],
    ]);
  });

  test('every tag is available; a probe verdict with extra fields is read for available and detail only', () => {
    expect(host.availableRuntimes()).toEqual(['neighbour', 'oldgit', 'oldglyph', 'oldscript', 'oldsh']);
    const { probeMs, ...verdict } = host.availability('neighbour')!;
    expect(probeMs).toBeGreaterThanOrEqual(0);
    expect(verdict).toEqual({ available: true, detail: 'neighbourly' });
  });

  test('a legacy tag admits a body, a target as written, or both', async () => {
    const out = await host.exec({ runtime: 'oldsh', body: 'uname -sr', target: 'build.sh' });
    expect(out.result.status).toBe(200);
    expect(stdoutJson(out)).toMatchObject({ runtime: 'oldsh', body: 'uname -sr', target: 'build.sh' });
  });
});

describe("a leaf's own settings reach its threads and no other leaf's", () => {
  test.each<[string, NodeJS.ProcessEnv | undefined]>([
    ['the thread env', undefined],
    ["beneath a run's own env", { PATH: process.env.PATH ?? '' }],
  ])('PLURNK_EXECS_<TAG>_* of every tag of the package, through %s', async (_title, env) => {
    const old = await host.exec({ runtime: 'oldgit', body: 'status', ...(env ? { env } : {}) });
    expect(stdoutJson(old).settings).toEqual({
      PLURNK_EXECS_OLDSH_GREETING: 'hello from the operator',
      plurnk_execs_oldscript_mode: 'lowercase keys count too',
    });
    const neighbour = await host.exec({ runtime: 'neighbour', body: 'x', ...(env ? { env } : {}) });
    expect(stdoutJson(neighbour).settings).toEqual({ PLURNK_EXECS_NEIGHBOUR_COLOR: 'green' });
  });

  test("the settings stay out of a run's args.env, so they never reach a child process", async () => {
    const report = stdoutJson(await host.exec({ runtime: 'oldsh', body: 'x', env: { ONLY_THIS: '1' } }));
    expect(report.settings).toHaveProperty('PLURNK_EXECS_OLDSH_GREETING');
    // args.env, what SubprocessExecutor hands a child, is exactly what the service passed.
    expect(report.argsEnv).toEqual(['ONLY_THIS']);
  });
});

describe('effect is an admission fact, taken once', () => {
  test('host.effect() at proposal, then exec({ effect }) later: effect() ran once', async () => {
    const script = scriptFile('proposed.sh');
    const fact = await host.effect('oldscript', script);
    expect(fact).toBe('read');
    expect(effectCalls(script)).toBe(1);
    const out = await host.exec({ runtime: 'oldscript', body: '', target: script, effect: fact });
    expect(out.result.status).toBe(200);
    expect(out.effect).toBe('read');
    expect(effectCalls(script)).toBe(1);
  });

  test('without a fact, exec asks effect() itself, once', async () => {
    const script = scriptFile('unproposed.sh');
    const out = await host.exec({ runtime: 'oldscript', body: '', target: script });
    expect(out.result.status).toBe(200);
    expect(out.effect).toBe('read');
    expect(effectCalls(script)).toBe(1);
  });

  test('a fact that is not an Effect is a malformed request, named', async () => {
    const script = scriptFile('bad-fact.sh');
    const error: unknown = await host
      .exec({ runtime: 'oldscript', body: '', target: script, effect: 'write' as never })
      .catch((caught: unknown) => caught);
    expect(isPlurnkExecsError(error, 'invalid-request')).toBe(true);
    expect((error as Error).message).toContain('effect');
    expect(effectCalls(script)).toBe(0);
  });

  test('a script target is a file: a directory is refused before effect()', async () => {
    const out = await host.exec({ runtime: 'oldscript', body: '', target: scratch });
    expect(out.result.status).toBe(400);
    expect(out.result.problem?.detail).toContain('is a directory');
    expect(out.effect).toBeNull();
  });
});

describe('cancellation as the service sees it (reference §3.2)', () => {
  test('aborted, and the leaf still returned 200: the run is 499 execution-cancelled', async () => {
    const controller = new AbortController();
    const out = await host.exec({
      runtime: 'oldsh',
      body: 'wait',
      signal: controller.signal,
      sinks: { write: (_channel, chunk) => chunk === 'waiting' && controller.abort({ signal: null }) },
    });
    expect(out.result.status).toBe(499);
    expect(out.result.problem?.type).toMatch(/execution-cancelled$/);
    expect(out.result.problem?.leafStatus).toBe(200);
    expect(out.channels.stdout?.text).toBe('waiting');
  });

  test('not aborted, the same leaf result stays 200', async () => {
    const out = await host.exec({ runtime: 'oldsh', body: 'not waiting' });
    expect(out.result.status).toBe(200);
  });
});

describe('an empty runtime means the default runtime', () => {
  test('defaultRuntime when the host has one', async () => {
    const out = await host.exec({ runtime: '', body: 'who am i' });
    expect(out.result.status).toBe(200);
    expect(stdoutJson(out).runtime).toBe('oldsh');
    expect(await host.effect('', null)).toBe('pure');
  });

  test('sh otherwise, as 1.x', async () => {
    const plain = await createHost({ packageDirs: [NEIGHBOUR], env: ENV });
    try {
      const out = await plain.exec({ runtime: '', body: 'x' });
      expect(out.result.status).toBe(501);
      expect(out.result.problem?.detail).toContain('no runtime "sh" is registered');
    } finally {
      await plain.close();
    }
  });
});

import { existsSync } from 'node:fs';
import { chmod, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { liveGroupMembers, onProcessGroup } from '../../../../src/index.js';
import { isInstalled, missingDetail } from '../../../helpers/interpreters.js';
import { executorFor, runInProcess, runTag, TAGS } from '../leaf-harness.js';

const COMMON = [...TAGS].filter(([, entry]) => entry.leaf === 'common').map(([tag]) => tag);

// What each tag's probe says when its interpreter is installed: its version line.
const VERSION: Record<string, RegExp> = Object.fromEntries([
  ['sh', /^\/.*\/sh$/],
  ['bash', /^GNU bash, version \d/],
  ['node', /^v\d+\.\d+\.\d+$/],
  ['python', /^Python 3\.\d+/],
  ['python3', /^Python 3\.\d+/],
  ['perl', /^perl v5\.\d+/],
  ['ruby', /^ruby \d/],
  ['php', /^PHP \d/],
  ['lua', /^Lua 5\.4/],
  ['tcl', /^tclsh 8\.\d+/],
  ['bc', /^bc \d/],
  ['awk', /awk/i],
  ['deno', /^deno \d/],
  ['bun', /^\d+\.\d+\.\d+/],
]);

const INSTALL: Record<string, string> = {
  sh: 'sh not on PATH (install: apt-get install dash)',
  bash: 'bash not on PATH (install: apt-get install bash)',
  node: 'node not on PATH (install: install Node.js 20 or later)',
  python: 'python3 not on PATH (install: apt-get install python3)',
  python3: 'python3 not on PATH (install: apt-get install python3)',
  perl: 'perl not on PATH (install: apt-get install perl)',
  ruby: 'ruby not on PATH (install: apt-get install ruby)',
  php: 'php not on PATH (install: apt-get install php-cli)',
  lua: 'lua5.4 or lua not on PATH (install: apt-get install lua5.4)',
  deno: 'deno not on PATH (install: npm install -g deno)',
  bun: 'bun not on PATH (install: npm install -g bun)',
  tcl: 'tclsh not on PATH (install: apt-get install tcl)',
  bc: 'bc not on PATH (install: apt-get install bc)',
  awk: 'awk not on PATH (install: apt-get install mawk)',
};

let dir: string;
beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'leaf-probe-'));
});
afterAll(async () => {
  await rm(dir, { recursive: true, force: true });
});
afterEach(() => {
  vi.unstubAllEnvs();
});

/** Writes an executable shell script named `name` into a fresh folder and returns the folder. */
async function fakeBinary(name: string, script: string): Promise<string> {
  const bin = await mkdtemp(join(dir, 'bin-'));
  await writeFile(join(bin, name), `#!/bin/sh\n${script}\n`);
  await chmod(join(bin, name), 0o755);
  return bin;
}

describe('common leaf probes', () => {
  it('declares exactly the fourteen tags of the default inventory', () => {
    expect(COMMON).toEqual([
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
    ]);
  });

  // Whatever this machine has: an installed interpreter reports its version, a missing one
  // (deno and bun here, see docs/leaves.md) says how to install it.
  it.each(COMMON.map((tag) => ({ tag, installed: isInstalled(tag) })))(
    '$tag reports what is installed here (installed: $installed)',
    async ({ tag, installed }) => {
      const verdict = await (await executorFor(tag)).probe();
      if (installed) expect(verdict).toEqual({ available: true, detail: expect.stringMatching(VERSION[tag]!) });
      else expect(verdict).toEqual({ available: false, detail: missingDetail(tag) });
    },
  );

  it.each(COMMON)('%s is unavailable with an install hint when PATH lacks it', async (tag) => {
    vi.stubEnv('PATH', await mkdtemp(join(dir, 'empty-')));
    expect(await (await executorFor(tag)).probe()).toEqual({ available: false, detail: INSTALL[tag] });
  });

  it('looks names up without a shell: a PATH entry holding shell syntax is only a folder name', async () => {
    vi.stubEnv('PATH', `$(touch ${join(dir, 'injected')});/usr/bin`);
    await (await executorFor('ruby')).probe();
    expect(existsSync(join(dir, 'injected'))).toBe(false);
  });

  it('a binary that fails its version command is unavailable, with what it said', async () => {
    vi.stubEnv('PATH', await fakeBinary('ruby', 'echo "ruby: broken install" >&2; exit 7'));
    const verdict = await (await executorFor('ruby')).probe();
    expect(verdict.available).toBe(false);
    expect(verdict.detail).toMatch(/\/ruby --version exited 7: ruby: broken install$/);
  });

  it('lua falls back to a binary named lua when lua5.4 is not on PATH', async () => {
    vi.stubEnv('PATH', await fakeBinary('lua', 'echo "Lua 5.4.9 (fallback)"'));
    const executor = await executorFor('lua');
    expect(await executor.probe()).toEqual({ available: true, detail: 'Lua 5.4.9 (fallback)' });
    expect((executor as unknown as { binary: string }).binary).toBe('lua');
  });

  it('a deno found on PATH is probed by version and runs the body as deno eval BODY', async () => {
    const bin = await fakeBinary(
      'deno',
      'if [ "$1" = --version ]; then echo "deno 9.9.9 (fake)"; exit 0; fi\nfor a in "$@"; do echo "[$a]"; done',
    );
    vi.stubEnv('PATH', `${bin}:${process.env.PATH}`);
    expect(await (await executorFor('deno')).probe()).toEqual({ available: true, detail: 'deno 9.9.9 (fake)' });
    const run = await runTag('deno', { body: 'console.log(1)', env: { PATH: `${bin}:/usr/bin:/bin` } });
    expect(run.channel('stdout').text).toBe('[eval]\n[console.log(1)]\n');
  });

  it('a bun found on PATH runs the body as bun -e BODY, and a target as bun run TARGET', async () => {
    const bin = await fakeBinary('bun', 'for a in "$@"; do echo "[$a]"; done');
    const env = { PATH: `${bin}:/usr/bin:/bin` };
    // In this thread: through the host, bun's boot verdict (bun is not on PATH at boot) would refuse the run.
    const bun = await executorFor('bun');
    expect((await runInProcess(bun, 'bun', { body: 'console.log(1)', env })).recording.text('stdout')).toBe(
      '[-e]\n[console.log(1)]\n',
    );
    expect((await runInProcess(bun, 'bun', { target: 'main.ts', env })).recording.text('stdout')).toBe(
      '[run]\n[main.ts]\n',
    );
  });

  it('an aborted probe kills the version command it started and says it was cancelled', async () => {
    const marker = join(dir, 'started');
    vi.stubEnv('PATH', await fakeBinary('ruby', `/usr/bin/touch ${marker}; exec /bin/sleep 60`));
    const groups: number[] = [];
    const unsubscribe = onProcessGroup((pgid) => groups.push(pgid));
    try {
      const controller = new AbortController();
      const probing = (await executorFor('ruby')).probe(controller.signal);
      await vi.waitFor(() => expect(existsSync(marker)).toBe(true), { timeout: 10_000 });
      controller.abort();
      const verdict = await probing;
      expect(verdict.available).toBe(false);
      expect(verdict.detail).toMatch(/^probe of .*\/ruby was cancelled$/);
      expect(groups).toHaveLength(1);
      await vi.waitFor(() => expect(liveGroupMembers(groups[0]!)).toEqual([]), { timeout: 10_000 });
    } finally {
      unsubscribe();
    }
  });
});

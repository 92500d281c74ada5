import { execFile } from 'node:child_process';
import { cp, mkdtemp, readdir, rm, stat, symlink, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { REPO } from '../../helpers/run-cli.js';

// The package as a user gets it: `npm pack` the core and every built-in leaf, install the
// tarballs into a fresh project (from the npm cache when it can, the registry otherwise) and
// run the installed `plurnk-execs` there, not the repository's. It packs a copy of the checkout:
// `npm pack` runs prepack, which rebuilds the thread and engine bundles (removing them first) and
// rewrites package.json, and every other test file running meanwhile starts threads, engines and
// services from those files.
const run = promisify(execFile);
const LEAVES = ['common', 'git', 'jq', 'sqlite', 'wasm'].map((leaf) => path.join('src', 'leaves', leaf));
// Two tags keep the boot short on a loaded machine; discovery still reads every package.
const ENV = { ...process.env, PLURNK_EXECS_ONLY: 'sh,jq' };

let root = '';
let project = '';
let installLog = '';
let core = '';
/** What other test files start services, engines and threads from, as it was before the pack and after. */
const SHARED = ['package.json', 'dist/engine/bundle/engine-entry.js', 'dist/worker/thread-root.js'];
const writtenAt = async () => Promise.all(SHARED.map(async (file) => (await stat(path.join(REPO, file))).mtimeMs));
let sharedBefore: number[] = [];
let sharedAfter: number[] = [];

beforeAll(async () => {
  root = await mkdtemp(path.join(tmpdir(), 'plurnk-packed-'));
  project = path.join(root, 'project');
  sharedBefore = await writtenAt();
  const checkout = path.join(root, 'checkout');
  const TOP_LEVEL_SKIPPED = new Set(['node_modules', '.git'].map((name) => path.join(REPO, name)));
  await cp(REPO, checkout, {
    recursive: true,
    preserveTimestamps: true,
    verbatimSymlinks: true,
    filter: (from) => !TOP_LEVEL_SKIPPED.has(from),
  });
  await symlink(path.join(REPO, 'node_modules'), path.join(checkout, 'node_modules'));
  await run('npm', ['pack', '.', ...LEAVES, '--pack-destination', root, '--silent'], { cwd: checkout });
  sharedAfter = await writtenAt();
  const tarballs = (await readdir(root)).filter((name) => name.endsWith('.tgz'));
  core = path.join(
    root,
    tarballs.find((name) => /^plurnk-plurnk-execs-\d/.test(name))!,
  );
  await run('mkdir', [project]);
  await writeFile(path.join(project, 'package.json'), JSON.stringify({ name: 'svc', private: true, type: 'module' }));
  const installed = await run(
    'npm',
    ['install', '--prefer-offline', '--no-audit', '--no-fund', ...tarballs.map((name) => path.join('..', name))],
    { cwd: project },
  );
  installLog = installed.stdout + installed.stderr;
}, 600_000);

afterAll(async () => {
  if (root) await rm(root, { recursive: true, force: true });
});

function plurnkExecs(...argv: string[]) {
  return run(path.join(project, 'node_modules', '.bin', 'plurnk-execs'), argv, { cwd: project, env: ENV });
}

describe('the packed tarballs installed into a fresh project', () => {
  it('install without a lifecycle script to run or approve', () => {
    expect(installLog).not.toMatch(/prepare|install-scripts/);
  });

  it('are packed without touching the checkout the other test files run from', () => {
    expect(sharedAfter).toEqual(sharedBefore);
  });

  it('ship no build state, and source maps whose sources resolve', async () => {
    const { stdout } = await run('tar', ['tzf', core]);
    expect(stdout).not.toContain('.tsbuildinfo');
    const map = JSON.parse((await run('tar', ['xzfO', core, 'package/dist/host/create-host.js.map'])).stdout);
    expect(map.sourcesContent).toHaveLength(map.sources.length);
  });

  it('probe the installed leaves', async () => {
    const { stdout } = await plurnkExecs('probe');
    expect(stdout).toMatch(/^sh\s+@plurnk\/plurnk-execs-common\s+yes/m);
    expect(stdout).toMatch(/^jq\s+@plurnk\/plurnk-execs-jq\s+yes/m);
  }, 120_000);

  it('run one EXEC', async () => {
    const { stdout } = await plurnkExecs('exec', 'sh', 'echo hello from the tarball');
    expect(stdout).toContain('hello from the tarball');
  }, 120_000);
});

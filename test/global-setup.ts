import { execFile } from 'node:child_process';
import { readdirSync, statSync } from 'node:fs';
import { join, relative } from 'node:path';
import { promisify } from 'node:util';
import { binariesToHide, HIDE_VARIABLE, pathWithout } from './helpers/hidden-path.js';
import { missingInterpreters } from './helpers/interpreters.js';

const ROOT = join(import.meta.dirname, '..');
// Each project loads this file afresh; the promise lives on globalThis so the work runs once.
const SHARED = Symbol.for('plurnk-execs.test-setup');
const shared = globalThis as { [SHARED]?: Promise<void> };

/**
 * Runs once before any test file (vitest calls it once per project; the work is shared).
 * The worker entry, the built-in leaves and every fixture run the compiled `dist/`, so a test
 * run after a `src/` edit would test old code: build first (`tsc -b` is cheap when nothing
 * changed), and when the build fails, name the files whose output is stale. Then hide the
 * interpreters PLURNK_EXECS_TEST_HIDE_INTERPRETERS names (`optional`: every one the README does
 * not ask for) from the PATH every test worker inherits, and say which interpreters are missing,
 * so the tests that take the "unavailable" branch for them are expected.
 */
export default function setup(): Promise<void> {
  shared[SHARED] ??= prepare();
  return shared[SHARED];
}

async function prepare(): Promise<void> {
  // Read first, so a mistyped tag fails before the build rather than after.
  const hide = binariesToHide(process.env[HIDE_VARIABLE]);
  try {
    await promisify(execFile)(join(ROOT, 'node_modules', '.bin', 'tsc'), ['-b'], { cwd: ROOT });
  } catch (error) {
    throw buildFailed(error);
  }
  // Threads start on the bundle of their start path (scripts/bundle-thread.js): rebuilt from what tsc wrote.
  await promisify(execFile)(process.execPath, [join(ROOT, 'scripts', 'bundle-thread.js')], { cwd: ROOT });
  // Test workers start after this setup, with the environment it leaves.
  if (hide.length > 0) {
    process.env.PATH = pathWithout(hide);
    console.warn(`${HIDE_VARIABLE}: PATH hides ${hide.join(', ')}`);
  }
  const missing = missingInterpreters();
  if (missing.length > 0) {
    console.warn(`Interpreters not on PATH (their tests take the "unavailable" branch): ${missing.join(', ')}`);
  }
}

/** Why `tsc -b` failed, naming the files whose output is stale. */
function buildFailed(error: unknown): Error {
  const output = (error as { stdout?: string }).stdout ?? String(error);
  // The files tsc refused, and any source edited after its output was last written.
  const refused = [...output.matchAll(/^(\S+\.ts)\(\d+,\d+\)/gm)].map((match) => match[1]!);
  const stale = [...new Set([...refused, ...staleSources()])];
  return new Error(
    `@plurnk/plurnk-execs tests: \`tsc -b\` failed, so dist/ is older than src/ and threads would run old code.\n` +
      `${output.trim()}\nStale or unbuilt: ${stale.length > 0 ? stale.join(', ') : 'none found'}\n` +
      'Fix the build errors above, then run the tests again.',
    { cause: error },
  );
}

/** Every `src/**.ts` whose compiled `.js` is missing or older (the leaves compile to their own dist/). */
export function staleSources(): string[] {
  const stale: string[] = [];
  for (const file of sources(join(ROOT, 'src'))) {
    const leaf = /^(.*\/src\/leaves\/[^/]+)\/src\/(.*)\.ts$/.exec(file);
    const out = leaf
      ? join(leaf[1]!, 'dist', `${leaf[2]}.js`)
      : file.replace(/\/src\//, '/dist/').replace(/\.ts$/, '.js');
    if (modified(out) < modified(file)) stale.push(relative(ROOT, file));
  }
  return stale;
}

function* sources(dir: string): Generator<string> {
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    const path = join(dir, entry.name);
    if (entry.isDirectory() && entry.name !== 'dist' && entry.name !== 'node_modules') yield* sources(path);
    else if (entry.isFile() && entry.name.endsWith('.ts') && !entry.name.endsWith('.d.ts')) yield path;
  }
}

function modified(path: string): number {
  try {
    return statSync(path).mtimeMs;
  } catch {
    return 0;
  }
}

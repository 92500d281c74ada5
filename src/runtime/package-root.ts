import { readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const PACKAGE_NAME = '@plurnk/plurnk-execs';

let cached: string | undefined;

/**
 * The directory of this package: the nearest ancestor of this file whose package.json is
 * named `@plurnk/plurnk-execs`. The same answer from `src/host` (under vitest) and from
 * `dist/host` (installed), so the host can find compiled worker code and `.env.defaults`.
 */
export function packageRoot(): string {
  if (cached !== undefined) return cached;
  let dir = dirname(fileURLToPath(import.meta.url));
  for (;;) {
    if (readPackageName(join(dir, 'package.json')) === PACKAGE_NAME) return (cached = dir);
    const parent = dirname(dir);
    if (parent === dir)
      throw new Error(`${PACKAGE_NAME}: cannot find the package root above ${fileURLToPath(import.meta.url)}`);
    dir = parent;
  }
}

/**
 * Path of the file piscina loads in every executor thread: the CommonJS start file, which
 * imports the ES worker entry (worker/thread-start.cts says why). Worker threads always run
 * `dist/` JavaScript: a TypeScript worker costs ~220 ms and ~29 MB more per thread, and tsx
 * does not reach workers.
 */
export function workerEntryPath(): string {
  return join(packageRoot(), 'dist', 'worker', 'thread-start.cjs');
}

/** Path of the compiled entry of the one-shot thread a `runtimesModule` hook runs in. */
export function hookEntryPath(): string {
  return join(packageRoot(), 'dist', 'worker', 'hook-entry.js');
}

function readPackageName(path: string): string | undefined {
  try {
    return (JSON.parse(readFileSync(path, 'utf8')) as { name?: string }).name;
  } catch {
    return undefined;
  }
}

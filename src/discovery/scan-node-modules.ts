import { readdir, realpath, stat } from 'node:fs/promises';
import { dirname, join, resolve } from 'node:path';

/**
 * The nearest `node_modules` directory at or above `cwd`, or undefined when there is none
 * up to the filesystem root.
 */
export async function findNodeModules(cwd: string): Promise<string | undefined> {
  let dir = resolve(cwd);
  for (;;) {
    const candidate = join(dir, 'node_modules');
    if (await isDirectory(candidate)) return candidate;
    const parent = dirname(dir);
    if (parent === dir) return undefined;
    dir = parent;
  }
}

/**
 * Every package directory directly under `nodeModules`, scoped (`@scope/name`) and unscoped,
 * sorted by install name. Symlinked packages (npm workspaces link them that way) are followed
 * and returned by their real path; dot entries (`.bin`, `.package-lock.json`) and broken links
 * are skipped; one real directory reached through two names is listed once.
 */
export async function listPackageDirs(nodeModules: string): Promise<string[]> {
  const found: string[] = [];
  for (const name of await readNames(nodeModules)) {
    const path = join(nodeModules, name);
    if (!name.startsWith('@')) {
      found.push(path);
      continue;
    }
    for (const scoped of await readNames(path)) found.push(join(path, scoped));
  }
  const reals = await Promise.all(found.map((path) => realDirectory(path)));
  const seen = new Set<string>();
  const dirs: string[] = [];
  for (const real of reals) {
    if (real === undefined || seen.has(real)) continue;
    seen.add(real);
    dirs.push(real);
  }
  return dirs;
}

/** Sorted entry names that are not dot entries; none when `dir` cannot be read. */
async function readNames(dir: string): Promise<string[]> {
  try {
    const names = await readdir(dir);
    return names.filter((name) => !name.startsWith('.')).sort();
  } catch {
    return [];
  }
}

/** The real path of `path` when it is (or links to) a directory; undefined otherwise. */
async function realDirectory(path: string): Promise<string | undefined> {
  if (!(await isDirectory(path))) return undefined;
  try {
    return await realpath(path);
  } catch {
    return undefined;
  }
}

async function isDirectory(path: string): Promise<boolean> {
  try {
    return (await stat(path)).isDirectory();
  } catch {
    return false;
  }
}

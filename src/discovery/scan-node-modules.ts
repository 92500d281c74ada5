import { readdir, realpath, stat } from 'node:fs/promises';
import { dirname, join, resolve } from 'node:path';

/**
 * The nearest `node_modules` directory at or above `cwd`, or undefined when there is none
 * up to the filesystem root.
 */
export async function findNodeModules(cwd: string): Promise<string | undefined> {
  return (await findNodeModulesChain(cwd))[0];
}

/**
 * Every `node_modules` directory at or above `cwd`, nearest first: what Node's own module
 * resolution would search from `cwd`. 1.x started at the nearest one that contains `@plurnk`
 * and added its ancestors; this chain holds all of those, plus any nearer one (docs/compat.md).
 */
export async function findNodeModulesChain(cwd: string): Promise<string[]> {
  const chain: string[] = [];
  let dir = resolve(cwd);
  for (;;) {
    const candidate = join(dir, 'node_modules');
    if (await isDirectory(candidate)) chain.push(candidate);
    const parent = dirname(dir);
    if (parent === dir) return chain;
    dir = parent;
  }
}

/**
 * The package directories installed in `nodeModulesChain` (nearest first), each install name
 * once: a package in a nearer `node_modules` hides one of the same name further up, as Node
 * resolution would. Nearest directory's packages come first, each directory sorted by name.
 */
export async function listInstalledPackageDirs(nodeModulesChain: readonly string[]): Promise<string[]> {
  const seenNames = new Set<string>();
  const seenDirs = new Set<string>();
  const dirs: string[] = [];
  for (const nodeModules of nodeModulesChain) {
    for (const { name, dir } of await listPackages(nodeModules)) {
      if (seenNames.has(name) || seenDirs.has(dir)) continue;
      seenNames.add(name);
      seenDirs.add(dir);
      dirs.push(dir);
    }
  }
  return dirs;
}

/**
 * Every package directory directly under `nodeModules`, scoped (`@scope/name`) and unscoped,
 * sorted by install name. Symlinked packages (npm workspaces link them that way) are followed
 * and returned by their real path; dot entries (`.bin`, `.package-lock.json`) and broken links
 * are skipped; one real directory reached through two names is listed once.
 */
export async function listPackageDirs(nodeModules: string): Promise<string[]> {
  return (await listPackages(nodeModules)).map((pkg) => pkg.dir);
}

/** The packages of one `node_modules`: install name and real directory, each real directory once. */
async function listPackages(nodeModules: string): Promise<{ name: string; dir: string }[]> {
  const found: string[] = [];
  for (const name of await readNames(nodeModules)) {
    if (!name.startsWith('@')) {
      found.push(name);
      continue;
    }
    for (const scoped of await readNames(join(nodeModules, name))) found.push(`${name}/${scoped}`);
  }
  const reals = await Promise.all(found.map((name) => realDirectory(join(nodeModules, name))));
  const seen = new Set<string>();
  const packages: { name: string; dir: string }[] = [];
  reals.forEach((real, index) => {
    if (real === undefined || seen.has(real)) return;
    seen.add(real);
    packages.push({ name: found[index]!, dir: real });
  });
  return packages;
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

/**
 * `plurnk-execs check` over a directory of several leaf packages, laid out as they are in a
 * `node_modules` (`name/`, `@scope/name/`): each exec package in it is checked in turn, in a
 * host of its own, and the set is clean only when every package is.
 */
import { resolve } from 'node:path';
import { PlurnkExecsError } from '../contracts/errors.js';
import { readClaimedPackage } from '../discovery/read-manifest.js';
import { listPackageDirs } from '../discovery/scan-node-modules.js';
import { checkPackage, type CheckOptions } from './check-package.js';
import type { CheckReport, CheckSetReport } from './check-report.js';

/**
 * The exec packages under `dir`, in install-name order: `dir` itself when it is one, else every
 * package directly in it (symlinks followed, scoped packages included) whose package.json
 * declares `"plurnk": { "kind": "exec" }`. Empty when there is none.
 */
export async function findLeafPackages(dir: string): Promise<string[]> {
  const root = resolve(dir);
  if ((await readClaimedPackage(root)) !== undefined) return [root];
  const found: string[] = [];
  for (const candidate of await listPackageDirs(root))
    if ((await readClaimedPackage(candidate)) !== undefined) found.push(candidate);
  return found;
}

/**
 * Checks every leaf package under `dir` ({@link findLeafPackages}), one after another, and
 * calls `onReport` with each report as it is done. Throws `invalid-configuration` when `dir`
 * holds no exec package at all.
 */
export async function checkPackages(
  dir: string,
  options: CheckOptions = {},
  onReport?: (report: CheckReport) => void,
): Promise<CheckSetReport> {
  const root = resolve(dir);
  const dirs = await findLeafPackages(root);
  if (dirs.length === 0)
    throw new PlurnkExecsError(
      'invalid-configuration',
      `${root} holds no exec package, nor any directly inside it: a leaf's package.json declares "plurnk": { "kind": "exec" }`,
    );
  const packages: CheckReport[] = [];
  for (const packageDir of dirs) {
    const report = await checkPackage(packageDir, options);
    packages.push(report);
    onReport?.(report);
  }
  return {
    schema: 'plurnk-execs/check-set@2',
    dir: root,
    clean: packages.every((report) => report.clean),
    strict: options.strict ?? false,
    packages,
  };
}

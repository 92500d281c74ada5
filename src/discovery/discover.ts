import { fileURLToPath } from 'node:url';
import { PlurnkExecsError } from '../contracts/errors.js';
import type { Discovery, RegistryEntry } from '../contracts/registry.js';
import type { InvalidPackage } from '../contracts/registry.js';
import {
  collectDeclarations,
  declaredNames,
  type AdmittedPackage,
  type OwnedDeclaration,
} from './collect-declarations.js';
import { readDetails } from './details.js';
import { readEnvDefaults, type EnvDefault } from './env-defaults.js';
import { applyEnvFloors } from './env-floors.js';
import { Policy } from './policy.js';
import { readClaimedPackage, type ClaimedPackage } from './read-manifest.js';
import { resolveExport } from './resolve-export.js';
import { findNodeModules, listPackageDirs } from './scan-node-modules.js';
import { isTrusted } from './trust.js';
import { validateExecManifest } from './validate-manifest.js';

/** Options of `discover`. */
export interface DiscoverOptions {
  /** Where to start looking for the nearest `node_modules` (default `process.cwd()`). */
  cwd?: string;
  /** Load exactly these package directories instead of scanning `node_modules`. */
  packageDirs?: string[];
  /** Policy and trust environment (default `process.env`); never mutated. */
  env?: NodeJS.ProcessEnv;
  /** How long one `runtimesModule` hook may take (default 10 000 ms). */
  hookTimeoutMs?: number;
  /** The only tags to register (policy still applies on top); default every installed tag. */
  tags?: readonly string[];
  /**
   * What an invalid leaf package does: `'fail'` (default) throws `invalid-declaration`, as the
   * specification makes a bad declaration a fail-hard contract violation; `'skip'` leaves the
   * package out and reports it in `invalid`. A package whose every tag policy or `tags`
   * excludes never fails discovery either way.
   */
  onInvalidLeaf?: 'fail' | 'skip';
}

// This package's own floors (PLURNK_EXECS_ERROR_DETAIL_LIMIT) sit beneath every leaf's.
const FRAMEWORK = { name: '@plurnk/plurnk-execs', dir: fileURLToPath(new URL('../..', import.meta.url)) };

/**
 * Discovers installed executor leaves (§executor-discovery): scans the nearest
 * `node_modules` (or `packageDirs`) for packages declaring exactly `plurnk.kind === "exec"`,
 * withholds untrusted packages before any of their code or files are read beyond
 * package.json, assembles package `.env.defaults` floors beneath `env`, validates every
 * static or hook declaration, fails hard on collisions, applies policy, and reads each
 * admitted tag's details. Contract violations throw `PlurnkExecsError`; packages that are
 * not leaves are skipped silently.
 */
export async function discover(options: DiscoverOptions = {}): Promise<Discovery> {
  const supplied = options.env ?? process.env;
  const searched: string[] = [];
  const badClaims: { pkg: { packageName: string; packageDir: string }; error: PlurnkExecsError }[] = [];
  const claimed = await readClaims(
    options.packageDirs ?? (await scanInstalled(options.cwd ?? process.cwd(), searched)),
    (packageDir, error) => badClaims.push({ pkg: { packageName: '(unnamed package)', packageDir }, error }),
  );
  if (options.packageDirs !== undefined) searched.push(...options.packageDirs);
  const trusted = claimed.filter((pkg) => isTrusted(pkg.packageName, supplied));
  const skipped = claimed.filter((pkg) => !trusted.includes(pkg)).map((pkg) => pkg.packageName);
  const admitted: AdmittedPackage[] = [];
  const badManifests: { pkg: ClaimedPackage; error: PlurnkExecsError }[] = [];
  for (const pkg of trusted) {
    try {
      admitted.push({ pkg, manifest: validateExecManifest(pkg) });
    } catch (error) {
      if (!(error instanceof PlurnkExecsError)) throw error;
      badManifests.push({ pkg, error });
    }
  }
  const floors: EnvDefault[] = await readEnvDefaults(FRAMEWORK.dir, FRAMEWORK.name);
  for (const { pkg } of admitted) floors.push(...(await readEnvDefaults(pkg.packageDir, pkg.packageName)));
  const { env, envDefaults } = applyEnvFloors(supplied, floors);
  const serves = (tag: string) =>
    Policy.isEnabled(tag, env) && (options.tags === undefined || options.tags.includes(tag));
  const invalid: InvalidPackage[] = [];
  const reject = (
    pkg: { packageName: string; packageDir: string },
    errors: readonly PlurnkExecsError[],
    names: readonly string[],
  ) => {
    const restricted = options.tags !== undefined || Object.keys(env).some((key) => /^plurnk_execs_only$/i.test(key));
    const excluded = !names.some(serves) && (names.length > 0 || restricted);
    if (!excluded && options.onInvalidLeaf !== 'skip') throw combine(errors);
    invalid.push(
      Object.freeze({
        packageName: pkg.packageName,
        packageDir: pkg.packageDir,
        errors: Object.freeze(errors.map((error) => error.message)),
        excluded,
      }),
    );
  };
  for (const { pkg, error } of badClaims) reject(pkg, [error], []);
  for (const { pkg, error } of badManifests) reject(pkg, [error], rawNames(pkg));
  const declared = await collectDeclarations(admitted, env, options.hookTimeoutMs, reject);

  const registry = new Map<string, RegistryEntry>();
  const packageAttributions = new Map<string, readonly string[] | null>();
  const disabled: string[] = [];
  const entryUrls = new Map<ClaimedPackage, string | undefined>();
  for (const { pkg } of declared) {
    if (entryUrls.has(pkg)) continue;
    try {
      entryUrls.set(pkg, resolveEntry(pkg));
    } catch (error) {
      if (!(error instanceof PlurnkExecsError)) throw error;
      entryUrls.set(pkg, undefined);
      reject(
        pkg,
        [error],
        declared.filter((owned) => owned.pkg === pkg).map((owned) => owned.decl.name),
      );
    }
  }
  for (const owned of declared) {
    const entryUrl = entryUrls.get(owned.pkg);
    if (entryUrl === undefined) continue;
    const tag = owned.decl.name;
    if (!serves(tag)) {
      disabled.push(tag);
      continue;
    }
    registry.set(tag, await buildEntry(owned, entryUrl));
    if (!packageAttributions.has(owned.pkg.packageName))
      packageAttributions.set(owned.pkg.packageName, owned.manifest.attribution);
  }
  return Object.freeze({
    registry,
    packageAttributions,
    searched: Object.freeze(searched),
    skipped: Object.freeze([...new Set(skipped)].sort()),
    disabled: Object.freeze(disabled.sort()),
    invalid: Object.freeze(invalid),
    env,
    envDefaults,
  });
}

/** The declared tag names of a package whose manifest is invalid, as far as they can be read. */
function rawNames(pkg: ClaimedPackage): string[] {
  const runtimes = (pkg.plurnk as { runtimes?: unknown } | null)?.runtimes;
  return Array.isArray(runtimes) ? declaredNames(runtimes) : [];
}

function combine(errors: readonly PlurnkExecsError[]): PlurnkExecsError {
  if (errors.length === 1) return errors[0]!;
  return new PlurnkExecsError('invalid-declaration', errors.map((error) => error.message).join('\n\n'), {
    cause: new AggregateError(errors),
  });
}

async function scanInstalled(cwd: string, searched: string[]): Promise<string[]> {
  const nodeModules = await findNodeModules(cwd);
  if (nodeModules !== undefined) searched.push(nodeModules);
  return nodeModules === undefined ? [] : listPackageDirs(nodeModules);
}

/**
 * The claimed packages among `dirs`, in order, each real directory once. Manifests are read
 * concurrently; the first failure in `dirs` order is the one reported, so boots fail the same
 * way every time.
 */
async function readClaims(
  dirs: readonly string[],
  onInvalid: (dir: string, error: PlurnkExecsError) => void,
): Promise<ClaimedPackage[]> {
  const outcomes = await Promise.allSettled(dirs.map((dir) => readClaimedPackage(dir)));
  const claims: ClaimedPackage[] = [];
  for (const [index, outcome] of outcomes.entries()) {
    if (outcome.status === 'rejected') {
      // A claim without a usable name is judged with the others once policy is known.
      if (!(outcome.reason instanceof PlurnkExecsError)) throw outcome.reason;
      onInvalid(dirs[index]!, outcome.reason);
      continue;
    }
    const pkg = outcome.value;
    if (pkg !== undefined && !claims.some((c) => c.packageDir === pkg.packageDir)) claims.push(pkg);
  }
  return claims;
}

async function buildEntry({ pkg, manifest, decl }: OwnedDeclaration, entryUrl: string): Promise<RegistryEntry> {
  return Object.freeze({
    tag: decl.name,
    glyph: decl.glyph ?? '',
    summary: decl.summary,
    invocation: decl.invocation,
    details: await readDetails(pkg.packageDir, pkg.packageName, decl.name, decl.details),
    packageName: pkg.packageName,
    packageDir: pkg.packageDir,
    entryUrl,
    attribution: manifest.attribution,
  });
}

/** The file: URL of the package's "." export, whose default export is the executor class. */
function resolveEntry(pkg: ClaimedPackage): string {
  const url = resolveExport(pkg.packageDir, pkg.packageJson, '.');
  if (url !== undefined) return url;
  throw new PlurnkExecsError(
    'invalid-declaration',
    `Invalid exec package "${pkg.packageName}": its package.json "exports" has no "." entry with an import or default condition, so its executor cannot be imported. Fix: add "exports": { ".": "./index.js" } (or the file that default-exports the executor).`,
  );
}

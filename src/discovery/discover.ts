import { PlurnkExecsError } from '../contracts/errors.js';
import type { Discovery, ExecInfo, InvalidPackage } from '../contracts/registry.js';
import { packageRoot } from '../runtime/package-root.js';
import {
  assertNoCollisions,
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
import { findNodeModulesChain, listInstalledPackageDirs } from './scan-node-modules.js';
import { isTrusted } from './trust.js';
import { validateExecManifest } from './validate-manifest.js';

/** Options of `discover`. */
export interface DiscoverOptions {
  /** Where to start looking for `node_modules` directories (default `process.cwd()`). */
  cwd?: string;
  /**
   * Whether the scan also reads every `node_modules` above the nearest one, as 1.x did and
   * Node resolution does (nearest package wins by name). Default true; false reads only the
   * nearest `node_modules`, for a sealed tree such as a test fixture.
   */
  ancestors?: boolean;
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
const FRAMEWORK_NAME = '@plurnk/plurnk-execs';

/**
 * Discovers installed executor leaves (§executor-discovery): scans the `node_modules`
 * directories at and above `cwd` (nearest package wins by name; or exactly `packageDirs`) for
 * packages declaring exactly `plurnk.kind === "exec"`, withholds untrusted packages before any
 * of their code or files are read beyond package.json, assembles package `.env.defaults`
 * floors beneath `env`, validates every static or hook declaration (reading the ≤1.5 shape
 * the legacy way, with a notice), applies policy, then fails hard on collisions among the
 * tags policy kept, and reads each admitted tag's details. Contract violations throw
 * `PlurnkExecsError`; packages that are not leaves are skipped silently.
 */
export async function discover(options: DiscoverOptions = {}): Promise<Discovery> {
  const supplied = options.env ?? process.env;
  const searched: string[] = [];
  const badClaims: { pkg: { packageName: string; packageDir: string }; error: PlurnkExecsError }[] = [];
  const claimed = await readClaims(
    options.packageDirs ?? (await scanInstalled(options.cwd ?? process.cwd(), options.ancestors ?? true, searched)),
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
  const floors: EnvDefault[] = await readEnvDefaults(packageRoot(), FRAMEWORK_NAME);
  for (const { pkg } of admitted) floors.push(...(await readEnvDefaults(pkg.packageDir, pkg.packageName)));
  const { env, envDefaults } = applyEnvFloors(supplied, floors);
  const serves = (tag: string) =>
    Policy.isEnabled(tag, env) && (options.tags === undefined || options.tags.includes(tag));
  const invalid: InvalidPackage[] = [];
  // An invalid package fails discovery unless 'skip' was asked for, or policy excludes every tag it declares.
  const reject = (
    pkg: { packageName: string; packageDir: string },
    errors: readonly PlurnkExecsError[],
    names: readonly string[],
  ) => {
    const restricted = options.tags !== undefined || Object.keys(env).some((key) => /^plurnk_execs_only$/i.test(key));
    const excluded = !names.some(serves) && (names.length > 0 || restricted);
    if (!excluded && options.onInvalidLeaf !== 'skip') throw combine(errors);
    const { packageName, packageDir } = pkg;
    invalid.push(
      Object.freeze({ packageName, packageDir, errors: Object.freeze(errors.map((e) => e.message)), excluded }),
    );
  };
  for (const { pkg, error } of badClaims) reject(pkg, [error], []);
  for (const { pkg, error } of badManifests) reject(pkg, [error], rawNames(pkg));
  const { owned: declared, notices } = await collectDeclarations(admitted, env, options.hookTimeoutMs, reject);
  // Policy first, as 1.x: a disabled tag cannot collide.
  const enabled = declared.filter((owned) => serves(owned.decl.name));
  const disabled = declared.filter((owned) => !enabled.includes(owned)).map((owned) => owned.decl.name);
  assertNoCollisions(enabled);

  const registry = new Map<string, ExecInfo>();
  const packageAttributions = new Map<string, readonly string[]>();
  const entryUrls = new Map<ClaimedPackage, string | undefined>();
  for (const { pkg } of enabled) {
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
  for (const owned of enabled) {
    const entryUrl = entryUrls.get(owned.pkg);
    if (entryUrl === undefined) continue;
    registry.set(owned.decl.name, await buildEntry(owned, entryUrl));
    const attribution = owned.manifest.attribution;
    if (attribution !== null && !packageAttributions.has(owned.pkg.packageName))
      packageAttributions.set(owned.pkg.packageName, attribution);
  }
  return Object.freeze({
    registry,
    packageAttributions,
    skipped: Object.freeze([...new Set(skipped)].sort()),
    disabled: Object.freeze([...new Set(disabled)].sort()),
    notices: Object.freeze(notices),
    searched: Object.freeze(searched),
    invalid: Object.freeze(invalid),
    env,
    envDefaults,
  });
}

async function scanInstalled(cwd: string, ancestors: boolean, searched: string[]): Promise<string[]> {
  const chain = await findNodeModulesChain(cwd);
  const scanned = ancestors ? chain : chain.slice(0, 1);
  searched.push(...scanned);
  return listInstalledPackageDirs(scanned);
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

async function buildEntry({ pkg, manifest, decl }: OwnedDeclaration, entryUrl: string): Promise<ExecInfo> {
  const attribution = projectAttribution(pkg.plurnk.attribution, manifest.attribution);
  return Object.freeze({
    runtime: decl.name,
    glyph: decl.glyph ?? '',
    summary: decl.summary,
    invocation: decl.invocation,
    details: (await readDetails(pkg.packageDir, pkg.packageName, decl.name, decl.details)) ?? '',
    packageName: pkg.packageName,
    ...(attribution === undefined ? {} : { attribution }),
    ...(decl.resourcesPath === undefined ? {} : { resourcesPath: decl.resourcesPath }),
    packageDir: pkg.packageDir,
    entryUrl,
  });
}

/** 1.x's per-tag projection: the declared string as written, or a copy of the normalized list. */
function projectAttribution(
  raw: unknown,
  normalized: readonly string[] | null,
): string | readonly string[] | undefined {
  if (normalized === null) return undefined;
  return typeof raw === 'string' ? raw : Object.freeze([...normalized]);
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

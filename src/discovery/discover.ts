import { fileURLToPath } from 'node:url';
import { PlurnkExecsError } from '../contracts/errors.js';
import type { Discovery, ExecInfo } from '../contracts/registry.js';
import {
  assertNoCollisions,
  collectDeclarations,
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
}

// This package's own floors (PLURNK_EXECS_ERROR_DETAIL_LIMIT) sit beneath every leaf's.
const FRAMEWORK = { name: '@plurnk/plurnk-execs', dir: fileURLToPath(new URL('../..', import.meta.url)) };

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
  const claimed = await readClaims(
    options.packageDirs ?? (await scanInstalled(options.cwd ?? process.cwd(), options.ancestors ?? true)),
  );
  const trusted = claimed.filter((pkg) => isTrusted(pkg.packageName, supplied));
  const skipped = claimed.filter((pkg) => !trusted.includes(pkg)).map((pkg) => pkg.packageName);
  const admitted: AdmittedPackage[] = trusted.map((pkg) => ({ pkg, manifest: validateExecManifest(pkg) }));
  const floors: EnvDefault[] = await readEnvDefaults(FRAMEWORK.dir, FRAMEWORK.name);
  for (const { pkg } of admitted) floors.push(...(await readEnvDefaults(pkg.packageDir, pkg.packageName)));
  const { env, envDefaults } = applyEnvFloors(supplied, floors);
  const { owned: declared, notices } = await collectDeclarations(admitted, env, options.hookTimeoutMs);
  // Policy first, as 1.x: a disabled tag cannot collide.
  const enabled = declared.filter((owned) => Policy.isEnabled(owned.decl.name, env));
  const disabled = declared.filter((owned) => !enabled.includes(owned)).map((owned) => owned.decl.name);
  assertNoCollisions(enabled);

  const registry = new Map<string, ExecInfo>();
  const packageAttributions = new Map<string, readonly string[]>();
  const entryUrls = new Map<ClaimedPackage, string>();
  for (const owned of enabled) {
    const entryUrl = entryUrls.get(owned.pkg) ?? resolveEntry(owned.pkg);
    entryUrls.set(owned.pkg, entryUrl);
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
    env,
    envDefaults,
  });
}

async function scanInstalled(cwd: string, ancestors: boolean): Promise<string[]> {
  const chain = await findNodeModulesChain(cwd);
  return listInstalledPackageDirs(ancestors ? chain : chain.slice(0, 1));
}

/**
 * The claimed packages among `dirs`, in order, each real directory once. Manifests are read
 * concurrently; the first failure in `dirs` order is the one reported, so boots fail the same
 * way every time.
 */
async function readClaims(dirs: readonly string[]): Promise<ClaimedPackage[]> {
  const outcomes = await Promise.allSettled(dirs.map((dir) => readClaimedPackage(dir)));
  const claims: ClaimedPackage[] = [];
  for (const outcome of outcomes) {
    if (outcome.status === 'rejected') throw outcome.reason;
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

import { fileURLToPath } from 'node:url';
import { PlurnkExecsError } from '../contracts/errors.js';
import type { Discovery, RegistryEntry } from '../contracts/registry.js';
import { collectDeclarations, type AdmittedPackage, type OwnedDeclaration } from './collect-declarations.js';
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
  const claimed = await readClaims(options.packageDirs ?? (await scanInstalled(options.cwd ?? process.cwd())));
  const trusted = claimed.filter((pkg) => isTrusted(pkg.packageName, supplied));
  const skipped = claimed.filter((pkg) => !trusted.includes(pkg)).map((pkg) => pkg.packageName);
  const admitted: AdmittedPackage[] = trusted.map((pkg) => ({ pkg, manifest: validateExecManifest(pkg) }));
  const floors: EnvDefault[] = await readEnvDefaults(FRAMEWORK.dir, FRAMEWORK.name);
  for (const { pkg } of admitted) floors.push(...(await readEnvDefaults(pkg.packageDir, pkg.packageName)));
  const { env, envDefaults } = applyEnvFloors(supplied, floors);
  const declared = await collectDeclarations(admitted, env, options.hookTimeoutMs);

  const registry = new Map<string, RegistryEntry>();
  const packageAttributions = new Map<string, readonly string[] | null>();
  const disabled: string[] = [];
  const entryUrls = new Map<ClaimedPackage, string>();
  for (const owned of declared) {
    const tag = owned.decl.name;
    if (!Policy.isEnabled(tag, env)) {
      disabled.push(tag);
      continue;
    }
    const entryUrl = entryUrls.get(owned.pkg) ?? resolveEntry(owned.pkg);
    entryUrls.set(owned.pkg, entryUrl);
    registry.set(tag, await buildEntry(owned, entryUrl));
    if (!packageAttributions.has(owned.pkg.packageName))
      packageAttributions.set(owned.pkg.packageName, owned.manifest.attribution);
  }
  return Object.freeze({
    registry,
    packageAttributions,
    skipped: Object.freeze([...new Set(skipped)].sort()),
    disabled: Object.freeze(disabled.sort()),
    env,
    envDefaults,
  });
}

async function scanInstalled(cwd: string): Promise<string[]> {
  const nodeModules = await findNodeModules(cwd);
  return nodeModules === undefined ? [] : listPackageDirs(nodeModules);
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

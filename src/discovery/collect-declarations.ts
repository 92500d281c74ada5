import type { RuntimeDecl } from '../contracts/invocation.js';
import { PlurnkExecsError } from '../contracts/errors.js';
import type { DiscoveryNotice } from '../contracts/registry.js';
import {
  isLegacyDeclaration,
  isSummarylessDeclaration,
  readLegacyDeclaration,
  readSummarylessDeclaration,
} from './legacy-declaration.js';
import type { ClaimedPackage } from './read-manifest.js';
import { runRuntimesHook } from './runtimes-hook.js';
import { validateRuntimeDecl } from './validate-declaration.js';
import type { ExecManifest } from './validate-manifest.js';

/** A trusted package with its validated manifest. */
export interface AdmittedPackage {
  readonly pkg: ClaimedPackage;
  readonly manifest: ExecManifest;
}

/** Called, instead of throwing, with a package whose declarations are invalid; its tags are dropped. */
export type OnInvalidPackage = (
  pkg: ClaimedPackage,
  errors: readonly PlurnkExecsError[],
  names: readonly string[],
) => void;

/** One validated declaration and the package that owns it. */
export interface OwnedDeclaration extends AdmittedPackage {
  readonly decl: RuntimeDecl;
}

/** The declarations of the admitted packages, and a notice per package read the legacy way. */
export interface CollectedDeclarations {
  readonly owned: OwnedDeclaration[];
  readonly notices: DiscoveryNotice[];
}

/**
 * Every runtime declaration of the admitted packages, in discovery order: static
 * `plurnk.runtimes[]`, or what a `runtimesModule` hook returns (hooks run one package at a
 * time, in order, so a failure is attributed to exactly one package). A declaration in the
 * shape published up to 1.5 is first read through the legacy reading, and one lacking only
 * its summary (early 1.x) gets the neutral summary, each with a notice naming the package;
 * each then goes through the one validator, and every invalid one of a package
 * is reported together. Collisions are judged later, after policy (`assertNoCollisions`).
 */
export async function collectDeclarations(
  admitted: readonly AdmittedPackage[],
  env: NodeJS.ProcessEnv,
  hookTimeoutMs?: number,
  onInvalid?: OnInvalidPackage,
): Promise<CollectedDeclarations> {
  const owned: OwnedDeclaration[] = [];
  const notices: DiscoveryNotice[] = [];
  for (const { pkg, manifest } of admitted) {
    const fromHook = manifest.runtimes === undefined;
    let raw: readonly unknown[] | undefined;
    try {
      raw = fromHook
        ? await runRuntimesHook(pkg, manifest.runtimesModule as string, { env }, hookTimeoutMs)
        : manifest.runtimes;
    } catch (error) {
      if (onInvalid === undefined || !(error instanceof PlurnkExecsError)) throw error;
      onInvalid(pkg, [error], []);
      continue;
    }
    const hook = `plurnk.runtimesModule ${JSON.stringify(manifest.runtimesModule)}`;
    const failures: PlurnkExecsError[] = [];
    const valid: OwnedDeclaration[] = [];
    const legacy: string[] = [];
    const summaryless: string[] = [];
    (raw ?? []).forEach((candidate, index) => {
      const source = fromHook ? `item ${index} returned by ${hook}` : `plurnk.runtimes[${index}]`;
      try {
        const older = readOlderShape(candidate, pkg.packageName);
        const decl = validateRuntimeDecl(older?.read ?? candidate, { packageName: pkg.packageName, source });
        if (older !== undefined) (older.shape === 'legacy' ? legacy : summaryless).push(decl.name);
        valid.push({ pkg, manifest, decl });
      } catch (error) {
        failures.push(error as PlurnkExecsError);
      }
    });
    if (failures.length > 0 && onInvalid !== undefined) {
      onInvalid(pkg, failures, declaredNames(raw ?? []));
      continue;
    }
    throwAll(failures);
    owned.push(...valid);
    if (legacy.length > 0) notices.push(legacyNotice(pkg.packageName, legacy));
    if (summaryless.length > 0) notices.push(summarylessNotice(pkg.packageName, summaryless));
  }
  return { owned, notices };
}

/** A declaration in an older published shape, completed, and which shape it was; undefined for the current one. */
function readOlderShape(
  candidate: unknown,
  packageName: string,
): { shape: 'legacy' | 'summaryless'; read: Record<string, unknown> } | undefined {
  if (isLegacyDeclaration(candidate)) return { shape: 'legacy', read: readLegacyDeclaration(candidate, packageName) };
  if (isSummarylessDeclaration(candidate))
    return { shape: 'summaryless', read: readSummarylessDeclaration(candidate, packageName) };
  return undefined;
}

function legacyNotice(packageName: string, runtimes: readonly string[]): DiscoveryNotice {
  const tags = runtimes.map((tag) => JSON.stringify(tag)).join(', ');
  return Object.freeze({
    packageName,
    runtimes: Object.freeze([...runtimes]),
    message: `package "${packageName}" declares ${tags} in the manifest shape published up to 1.5 (no summary or invocation): discovery derived a neutral summary, an optional body and an optional literal target, and the example from its "example" text where one was readable. Fix: declare "summary" and "invocation" for each runtime.`,
  });
}

function summarylessNotice(packageName: string, runtimes: readonly string[]): DiscoveryNotice {
  const tags = runtimes.map((tag) => JSON.stringify(tag)).join(', ');
  return Object.freeze({
    packageName,
    runtimes: Object.freeze([...runtimes]),
    message: `package "${packageName}" declares ${tags} without a "summary" (a shape early 1.x admitted; later 1.x requires it): discovery used the neutral summary "<tag> executor from ${packageName}". Fix: declare "summary" for each runtime.`,
  });
}

/** The `name` strings among raw declarations, valid or not: what policy can judge a broken package by. */
export function declaredNames(raw: readonly unknown[]): string[] {
  return raw.flatMap((item) =>
    typeof item === 'object' && item !== null && typeof (item as { name?: unknown }).name === 'string'
      ? [(item as { name: string }).name]
      : [],
  );
}

// Every bad runtime of a package is reported at once, so an author fixes them in one pass.
function throwAll(failures: readonly PlurnkExecsError[]): void {
  if (failures.length === 0) return;
  if (failures.length === 1) throw failures[0];
  throw new PlurnkExecsError('invalid-declaration', failures.map((failure) => failure.message).join('\n\n'), {
    cause: new AggregateError(failures),
  });
}

/**
 * Fails hard on a tag claimed twice, naming both claimants, first claimant first. Runs on the
 * declarations policy kept: a disabled tag cannot collide.
 */
export function assertNoCollisions(owned: readonly OwnedDeclaration[]): void {
  const first = new Map<string, OwnedDeclaration>();
  for (const claim of owned) {
    const tag = claim.decl.name;
    const earlier = first.get(tag);
    if (earlier === undefined) {
      first.set(tag, claim);
      continue;
    }
    const a = earlier.pkg;
    const b = claim.pkg;
    const [who, fix] =
      a.packageDir === b.packageDir
        ? [`package "${a.packageName}" declares it twice`, 'declare each tag once']
        : a.packageName === b.packageName
          ? [
              `package "${a.packageName}" is installed twice, at ${a.packageDir} and at ${b.packageDir}`,
              'install it once',
            ]
          : [
              `it is claimed by both "${a.packageName}" (first) and "${b.packageName}"`,
              `uninstall one of the two packages, or remove the tag from both with ${'`'}PLURNK_EXECS_${tag.toUpperCase()}=0${'`'} (policy applies before this check)`,
            ];
    throw new PlurnkExecsError('runtime-collision', `Runtime tag collision on "${tag}": ${who}. Fix: ${fix}.`);
  }
}

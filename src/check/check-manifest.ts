import { PlurnkExecsError } from '../contracts/errors.js';
import type { Discovery } from '../contracts/registry.js';
import { discover } from '../discovery/discover.js';
import { Policy } from '../discovery/policy.js';
import { readClaimedPackage } from '../discovery/read-manifest.js';
import { PLURNK_PLUGINS_TRUSTED_ONLY } from '../discovery/trust.js';
import { validateRuntimeDecl } from '../discovery/validate-declaration.js';

/** What discovery made of one package, tag by tag. */
export interface ManifestCheck {
  readonly packageName: string;
  /** The package's discovery with every one of its tags enabled; undefined when it failed. */
  readonly discovery: Discovery | undefined;
  /** The whole discovery error, every line of it, when discovery failed. */
  readonly error: string | undefined;
  /** Every tag the package declares, in order, with the problems of its declaration ([] when valid). */
  readonly tags: readonly { readonly tag: string; readonly errors: readonly string[] }[];
  /** Tags the package's own `.env.defaults` switches off: checked anyway. */
  readonly disabledByDefault: readonly string[];
}

/**
 * Discovers exactly the package in `dir` (`packageDirs: [dir]`) the way a host would, but
 * with the operator's policy and trust gate set aside — checking a package means trusting it
 * and enabling all of its tags. When discovery fails, each static declaration is validated on
 * its own so every problem is reported against its tag, and the whole error is kept too.
 * Throws `invalid-configuration` when `dir` holds no exec package at all.
 */
export async function checkManifest(dir: string, hookTimeoutMs: number): Promise<ManifestCheck> {
  const pkg = await readClaimedPackage(dir);
  if (pkg === undefined) {
    throw new PlurnkExecsError(
      'invalid-configuration',
      `${dir} holds no exec package: its package.json is missing, unreadable, or does not declare "plurnk": { "kind": "exec" }`,
    );
  }
  const env = withoutPolicy(process.env);
  try {
    let discovery = await discover({ packageDirs: [dir], env, hookTimeoutMs });
    const disabledByDefault = [...discovery.disabled];
    if (disabledByDefault.length > 0) {
      const enable = Object.fromEntries(disabledByDefault.map((tag) => [Policy.keyFor(tag), '1']));
      discovery = await discover({ packageDirs: [dir], env: { ...env, ...enable }, hookTimeoutMs });
    }
    const tags = [...discovery.registry.keys()].map((tag) => ({ tag, errors: [] }));
    return { packageName: pkg.packageName, discovery, error: undefined, tags, disabledByDefault };
  } catch (error) {
    const message = error instanceof Error ? error.message : String(error);
    return {
      packageName: pkg.packageName,
      discovery: undefined,
      error: message,
      tags: attributeErrors(pkg.packageName, pkg.plurnk.runtimes),
      disabledByDefault: [],
    };
  }
}

/** Each static declaration validated alone: its tag (or position) and its problem lines. */
function attributeErrors(packageName: string, runtimes: unknown): { tag: string; errors: string[] }[] {
  if (!Array.isArray(runtimes)) return [];
  return runtimes.map((candidate: unknown, index) => {
    const name = (candidate as { name?: unknown } | null)?.name;
    const tag = typeof name === 'string' && name !== '' ? name : `plurnk.runtimes[${index}]`;
    try {
      validateRuntimeDecl(candidate, { packageName, source: `plurnk.runtimes[${index}]` });
      return { tag, errors: [] };
    } catch (error) {
      const lines = (error as Error).message
        .split('\n')
        .filter((line) => line.startsWith('- '))
        .map((line) => line.slice(2));
      return { tag, errors: lines.length > 0 ? lines : [(error as Error).message] };
    }
  });
}

/** `env` without the keys that would remove tags or withhold the package. */
function withoutPolicy(env: NodeJS.ProcessEnv): NodeJS.ProcessEnv {
  return Object.fromEntries(
    Object.entries(env).filter(([key]) => !Policy.isKey(key) && key !== PLURNK_PLUGINS_TRUSTED_ONLY),
  );
}

import { PlurnkExecsError } from '../contracts/errors.js';
import { describeValue } from './describe-value.js';
import type { ClaimedPackage } from './read-manifest.js';
import { resolveExport } from './resolve-export.js';

/** How long a runtimes hook may take before discovery gives up on it (ms). */
export const DEFAULT_HOOK_TIMEOUT_MS = 10_000;

/** What a runtimes hook is called with: the environment discovery evaluates policy against. */
export interface RuntimesHookContext {
  readonly env: NodeJS.ProcessEnv;
}

/**
 * Imports a trusted package's `plurnk.runtimesModule` (§executor-dynamic-runtimes) and calls
 * its named `runtimes` export, or its default export, awaiting the result. Only call this
 * after the trust gate. An unresolvable or unloadable module, a missing function export, a
 * hook that throws, rejects or does not settle within `timeoutMs`, or a result that is not an
 * array fails hard with `invalid-hook` naming the package. The returned declarations are not
 * yet validated.
 */
export async function runRuntimesHook(
  pkg: ClaimedPackage,
  subpath: string,
  context: RuntimesHookContext,
  timeoutMs = DEFAULT_HOOK_TIMEOUT_MS,
): Promise<unknown[]> {
  const where = `package "${pkg.packageName}" plurnk.runtimesModule ${JSON.stringify(subpath)}`;
  const url = resolveExport(pkg.packageDir, pkg.packageJson, subpath);
  if (url === undefined) {
    throw new PlurnkExecsError('invalid-hook', `Invalid runtimes hook in ${where}: the package's exports map does not export that subpath. Fix: add ${JSON.stringify(subpath)} to "exports" in its package.json.`);
  }
  let mod: Record<string, unknown>;
  try {
    mod = (await import(url)) as Record<string, unknown>;
  } catch (cause) {
    throw new PlurnkExecsError('invalid-hook', `Invalid runtimes hook in ${where}: ${url} could not be loaded (${describeError(cause)}). Fix: make the module importable.`, { cause });
  }
  const hook = 'runtimes' in mod ? mod.runtimes : mod.default;
  if (typeof hook !== 'function') {
    const which = 'runtimes' in mod ? 'its "runtimes" export' : 'it has no "runtimes" export and its default export';
    throw new PlurnkExecsError('invalid-hook', `Invalid runtimes hook in ${where}: ${which} is ${describeValue(hook)}, not a function. Fix: export function runtimes() returning the declarations.`);
  }
  let result: unknown;
  try {
    result = await settleWithin(Promise.resolve().then(() => hook(context)), timeoutMs);
  } catch (cause) {
    throw new PlurnkExecsError('invalid-hook', `Invalid runtimes hook in ${where}: the hook failed: ${describeError(cause)}. Fix: make runtimes() return the declarations without throwing.`, { cause });
  }
  if (!Array.isArray(result)) {
    throw new PlurnkExecsError('invalid-hook', `Invalid runtimes hook in ${where}: the hook returned ${describeValue(result)}, not an array. Fix: return an array of runtime declarations (or a promise of one).`);
  }
  return result;
}

function settleWithin<T>(promise: Promise<T>, timeoutMs: number): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(`it did not settle within ${timeoutMs} ms`)), timeoutMs);
  });
  return Promise.race([promise, timeout]).finally(() => clearTimeout(timer));
}

function describeError(error: unknown): string {
  return error instanceof Error ? `${error.name}: ${error.message}` : describeValue(error);
}

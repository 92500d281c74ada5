import { PlurnkExecsError } from '../contracts/errors.js';
import { deserializeError } from '../contracts/serialized-error.js';
import { describeValue } from './describe-value.js';
import { DEFAULT_HOOK_TIMEOUT_MS, type RuntimesHookContext } from './hook-contract.js';
import { callHookInThread } from './hook-thread.js';
import type { ClaimedPackage } from './read-manifest.js';
import { resolveExport } from './resolve-export.js';

/**
 * Imports a trusted package's `plurnk.runtimesModule` (§executor-dynamic-runtimes) and calls
 * its named `runtimes` export, or its default export, awaiting the result — in a thread of
 * its own, so a hook that spins or exits cannot take the host with it. Only call this after
 * the trust gate. An unresolvable or unloadable module, a missing function export, a hook
 * that throws, rejects, kills its thread or does not settle within `timeoutMs` (thread start
 * included), or a result that is not an array fails hard with `invalid-hook` naming the
 * package. The returned declarations are not yet validated.
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
    throw new PlurnkExecsError(
      'invalid-hook',
      `Invalid runtimes hook in ${where}: the package's exports map does not export that subpath. Fix: add ${JSON.stringify(subpath)} to "exports" in its package.json.`,
    );
  }
  const outcome = await callHookInThread({ url, env: { ...context.env } }, timeoutMs);
  switch (outcome.stage) {
    case 'load': {
      const cause = deserializeError(outcome.error);
      throw new PlurnkExecsError(
        'invalid-hook',
        `Invalid runtimes hook in ${where}: ${url} could not be loaded (${describeError(cause)}). Fix: make the module importable.`,
        { cause },
      );
    }
    case 'export': {
      const which = outcome.named ? 'its "runtimes" export' : 'it has no "runtimes" export and its default export';
      throw new PlurnkExecsError(
        'invalid-hook',
        `Invalid runtimes hook in ${where}: ${which} is ${describeValue(outcome.value)}, not a function. Fix: export function runtimes() returning the declarations.`,
      );
    }
    case 'clone':
      throw new PlurnkExecsError(
        'invalid-hook',
        `Invalid runtimes hook in ${where}: the hook returned a value that cannot cross the thread: ${outcome.path === '' ? 'the value itself' : `field ${outcome.path}`} is ${outcome.what}. Fix: return plain data (strings, numbers, booleans, arrays and objects of them), no functions or symbols.`,
      );
    case 'call':
    case 'timeout':
    case 'died': {
      const cause =
        outcome.stage === 'call'
          ? deserializeError(outcome.error)
          : new Error(outcome.stage === 'timeout' ? `it did not settle within ${timeoutMs} ms` : outcome.detail);
      throw new PlurnkExecsError(
        'invalid-hook',
        `Invalid runtimes hook in ${where}: the hook failed: ${describeError(cause)}. Fix: make runtimes() return the declarations without throwing.`,
        { cause },
      );
    }
  }
  const result = outcome.value;
  if (!Array.isArray(result)) {
    throw new PlurnkExecsError(
      'invalid-hook',
      `Invalid runtimes hook in ${where}: the hook returned ${describeValue(result)}, not an array. Fix: return an array of runtime declarations (or a promise of one).`,
    );
  }
  return result;
}

function describeError(error: unknown): string {
  return error instanceof Error ? `${error.name}: ${error.message}` : describeValue(error);
}

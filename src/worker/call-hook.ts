import type { HookBoot, HookReply } from '../contracts/hook-protocol.js';
import { serializeError } from '../contracts/serialized-error.js';
import { linkFramework } from './framework-link.js';

/**
 * Imports a `runtimesModule` hook and calls its named `runtimes` export, or its default
 * export, with `{ env }`, awaiting the result. Never rejects: every failure is a reply. A
 * value that cannot be cloned back to the host is answered as a call failure.
 */
export async function callHook(boot: HookBoot): Promise<HookReply> {
  let mod: Record<string, unknown>;
  try {
    await linkFramework(boot.url);
    mod = (await import(boot.url)) as Record<string, unknown>;
  } catch (error) {
    return { stage: 'load', error: serializeError(error) };
  }
  const named = 'runtimes' in mod;
  const hook = named ? mod.runtimes : mod.default;
  if (typeof hook !== 'function') return { stage: 'export', named, value: cloneable(hook) };
  let value: unknown;
  try {
    value = await hook({ env: { ...boot.env } });
  } catch (error) {
    return { stage: 'call', error: serializeError(error) };
  }
  try {
    structuredClone(value);
    return { stage: 'done', value };
  } catch {
    return { stage: 'clone', ...findUncloneable(value, '') };
  }
}

/** How deep {@link findUncloneable} follows a value before it names the field it stands on. */
const MAX_DEPTH = 32;

/**
 * The first field of `value` that cannot be cloned (`[0].invocation.parse`), and what it is:
 * it descends into the first child that fails to clone, and names the value itself when no
 * child does (a Promise, a WeakMap).
 */
function findUncloneable(value: unknown, path: string, depth = 0): { path: string; what: string } {
  if (typeof value === 'function') return { path, what: 'a function' };
  if (typeof value === 'symbol') return { path, what: `a symbol (${String(value.description)})` };
  if (typeof value === 'object' && value !== null && depth < MAX_DEPTH) {
    for (const [key, child] of Object.entries(value)) {
      const childPath = Array.isArray(value) ? `${path}[${key}]` : `${path}.${key}`;
      try {
        structuredClone(child);
      } catch {
        return findUncloneable(child, childPath, depth + 1);
      }
    }
  }
  const kind = typeof value === 'object' && value !== null ? (value.constructor?.name ?? 'object') : typeof value;
  return { path, what: `a ${kind} that cannot be cloned` };
}

/** `value` when it can cross the thread, else a description of it. */
function cloneable(value: unknown): unknown {
  try {
    return structuredClone(value);
  } catch {
    return `a ${typeof value} that cannot be cloned`;
  }
}

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
    linkFramework(boot.url);
    mod = (await import(boot.url)) as Record<string, unknown>;
  } catch (error) {
    return { stage: 'load', error: serializeError(error) };
  }
  const named = 'runtimes' in mod;
  const hook = named ? mod.runtimes : mod.default;
  if (typeof hook !== 'function') return { stage: 'export', named, value: cloneable(hook) };
  try {
    const value: unknown = await hook({ env: { ...boot.env } });
    structuredClone(value);
    return { stage: 'done', value };
  } catch (error) {
    return { stage: 'call', error: serializeError(error) };
  }
}

/** `value` when it can cross the thread, else a description of it. */
function cloneable(value: unknown): unknown {
  try {
    return structuredClone(value);
  } catch {
    return `a ${typeof value} that cannot be cloned`;
  }
}

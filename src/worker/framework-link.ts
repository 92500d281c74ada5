import { realpathSync } from 'node:fs';
import module, { createRequire } from 'node:module';
import { fileURLToPath } from 'node:url';
import type { resolve } from './framework-resolve-hook.js';

const NAME = '@plurnk/plurnk-execs';
const OWN_MANIFEST = fileURLToPath(new URL('../../package.json', import.meta.url));
const HOOK_URL = new URL('./framework-resolve-hook.js', import.meta.url);

type RegisterHooks = (hooks: { resolve: typeof resolve }) => unknown;
let linked = false;

/**
 * Makes the leaf at `entryUrl` import this copy of `@plurnk/plurnk-execs` when it would
 * otherwise find none (a symlinked local leaf) or another copy: installs the resolve hook of
 * framework-resolve-hook.ts in this thread, once. A leaf that already resolves to this copy
 * changes nothing, so the hook (an extra loader thread on Node 20, a module to load) costs only
 * those that need it.
 */
export async function linkFramework(entryUrl: string): Promise<void> {
  if (linked || !entryUrl.startsWith('file:') || resolvesToOwnCopy(entryUrl)) return;
  linked = true;
  const registerHooks = (module as { registerHooks?: RegisterHooks }).registerHooks;
  if (typeof registerHooks !== 'function') {
    module.register(HOOK_URL);
    return;
  }
  // Loaded here, not at the thread's start: a leaf that resolves to this copy never needs it.
  const { resolve } = await import('./framework-resolve-hook.js');
  registerHooks({ resolve });
}

function resolvesToOwnCopy(entryUrl: string): boolean {
  try {
    // Node imports a symlinked module from its real path, and resolves its imports from there.
    const found = createRequire(realpathSync(fileURLToPath(entryUrl))).resolve(`${NAME}/package.json`);
    return realpathSync(found) === realpathSync(OWN_MANIFEST);
  } catch {
    return false;
  }
}

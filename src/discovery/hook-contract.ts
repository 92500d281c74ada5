import type { RuntimeDecl } from '../contracts/invocation.js';

// What a leaf author's runtimes hook must be, apart from runtimes-hook.ts (which runs one): the
// package root exports these, and an executor thread importing the root has no hook to run.

/** How long a runtimes hook may take before discovery gives up on it (ms). */
export const DEFAULT_HOOK_TIMEOUT_MS = 10_000;

/** What a runtimes hook is called with: the environment discovery evaluates policy against. */
export interface RuntimesHookContext {
  readonly env: NodeJS.ProcessEnv;
}

/** A `plurnk.runtimesModule` export (1.x `RuntimesHook`): declarations, at once or awaited. */
export type RuntimesHook = (context: RuntimesHookContext) => RuntimeDecl[] | Promise<RuntimeDecl[]>;

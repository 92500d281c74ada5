import type { SerializedError } from './serialized-error.js';

// Messages of the one-shot thread a `runtimesModule` hook runs in (§executor-dynamic-runtimes).

/** What the hook thread is started with (`workerData`). */
export interface HookBoot {
  /** file: URL of the hook module. */
  readonly url: string;
  /** The environment discovery evaluates policy against: the hook's `context.env`. */
  readonly env: Readonly<Record<string, string | undefined>>;
  /** The `PLURNK_EXECS_RUN` value every child the hook starts carries: discovery kills them all once it answered. */
  readonly marker?: string;
}

/**
 * What the hook thread answers: the hook's settled value (unvalidated), or where it failed —
 * loading the module, finding a function export (`value` is what was there instead, or a
 * description when it cannot be cloned), calling it, or sending back what it returned (`path`
 * names the first field that cannot cross the thread, `what` describes it).
 */
export type HookReply =
  | { readonly stage: 'done'; readonly value: unknown }
  | { readonly stage: 'load'; readonly error: SerializedError }
  | { readonly stage: 'export'; readonly named: boolean; readonly value: unknown }
  | { readonly stage: 'call'; readonly error: SerializedError }
  | { readonly stage: 'clone'; readonly path: string; readonly what: string };

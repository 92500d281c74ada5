/**
 * The package's error family. Every error carries a stable `code`, keeps its `cause`, and is
 * recognised by a brand rather than `instanceof`, so the guard works across realms (a worker
 * thread's copy of this module, or a leaf that bundled its own copy).
 */
const BRAND = Symbol.for('@plurnk/plurnk-execs.error');

/** Stable codes of errors this package throws (Problems returned as results use their own codes). */
export type PlurnkExecsErrorCode =
  | 'invalid-command'
  | 'invalid-declaration'
  | 'runtime-collision'
  | 'invalid-hook'
  | 'invalid-env-defaults'
  | 'invalid-tool-registry'
  | 'invalid-configuration'
  | 'host-closed'
  | 'boot-failed'
  | 'invalid-request'
  | 'runtime-unavailable'
  | 'effect-failed'
  | 'forbidden'
  | 'invalid-result';

/** Base class of every error this package throws on purpose. */
export class PlurnkExecsError extends Error {
  readonly code: PlurnkExecsErrorCode;

  constructor(code: PlurnkExecsErrorCode, message: string, options?: { cause?: unknown }) {
    super(message, options);
    this.name = 'PlurnkExecsError';
    this.code = code;
    Object.defineProperty(this, BRAND, { value: true });
  }
}

/**
 * Thrown by `tokenizeArgv` (and by spawn recipes) when a command line cannot be turned into a
 * process: an unterminated quote, a trailing backslash, a leaf's own refusal (shell syntax in
 * a git body). `SubprocessExecutor` turns it into a 400 `invalid-command` result whose
 * `recovery` extension is this error's `recovery` — the thrower's advice, never replaced.
 * As in 1.x the second argument is the recovery; `{ cause }` options may come second or third.
 */
export class CommandSyntaxError extends PlurnkExecsError {
  /** How to fix the command, or `null` when the thrower gave no advice. */
  readonly recovery: string | null;

  constructor(message: string, recovery?: string | null | { cause?: unknown }, options?: { cause?: unknown }) {
    const advice = typeof recovery === 'string' ? recovery : null;
    const opts = typeof recovery === 'object' && recovery !== null ? recovery : options;
    super('invalid-command', message, opts);
    this.name = 'CommandSyntaxError';
    this.recovery = advice;
  }
}

/** True when `value` is an error of this package, optionally with the given code. */
export function isPlurnkExecsError(value: unknown, code?: PlurnkExecsErrorCode): value is PlurnkExecsError {
  if (typeof value !== 'object' || value === null || !(BRAND in value)) return false;
  return code === undefined || (value as unknown as PlurnkExecsError).code === code;
}

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
  | 'forbidden';

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
 * Thrown by `tokenizeArgv` (and by spawn recipes that call it) when a command line cannot be
 * split into words: an unterminated quote or a trailing backslash. `SubprocessExecutor` turns
 * it into a 400 `invalid-command` result.
 */
export class CommandSyntaxError extends PlurnkExecsError {
  constructor(message: string, options?: { cause?: unknown }) {
    super('invalid-command', message, options);
    this.name = 'CommandSyntaxError';
  }
}

/** True when `value` is an error of this package, optionally with the given code. */
export function isPlurnkExecsError(value: unknown, code?: PlurnkExecsErrorCode): value is PlurnkExecsError {
  if (typeof value !== 'object' || value === null || !(BRAND in value)) return false;
  return code === undefined || (value as unknown as PlurnkExecsError).code === code;
}

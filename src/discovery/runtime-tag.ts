import { PlurnkExecsError } from '../contracts/errors.js';

const PATTERN = /^[a-z][a-z0-9+.-]*$/;
const SYNTAX = '[a-z][a-z0-9+.-]*';

// `only` would collide with PLURNK_EXECS_ONLY, the allowlist key: a tag named `only` could
// never be switched off on its own.
const RESERVED: ReadonlyMap<string, string> = new Map([['only', 'PLURNK_EXECS_ONLY']]);

/**
 * The runtime-tag grammar (§executor-tool-document, runtime-name admission). A tag is the
 * EXEC selector, the registry key, the tool-family identity and the output URI scheme, so it
 * is canonical lowercase RFC 3986 scheme syntax: `[a-z][a-z0-9+.-]*`. `only` is reserved.
 * A class of statics, as 1.x exports it (`RuntimeTag.is`, `RuntimeTag.assert`).
 */
export class RuntimeTag {
  /** The tag syntax as a regular expression (reserved names match it too). */
  static readonly PATTERN: RegExp = PATTERN;
  /** The tag syntax as text, for messages. */
  static readonly SYNTAX: string = SYNTAX;
  /** Names that match the syntax but can never be tags. */
  static readonly RESERVED: readonly string[] = Object.freeze([...RESERVED.keys()]);

  /** True when `name` is an admissible runtime tag: the syntax, and not reserved. */
  static isValid(name: unknown): name is string {
    return typeof name === 'string' && PATTERN.test(name) && !RESERVED.has(name);
  }

  /** 1.x's name for {@link RuntimeTag.isValid}. */
  static is(name: unknown): name is string {
    return RuntimeTag.isValid(name);
  }

  /**
   * Returns `value` when it is an admissible tag, else throws
   * `PlurnkExecsError('invalid-declaration')` worded as 1.x words it, naming `owner`:
   * `exec runtime declaration invalid: <owner> name '<x>' must match …` (or `must declare a
   * string name …`, or `… is reserved by PLURNK_EXECS_ONLY`).
   */
  static assert(value: unknown, owner: string): string {
    const fail = (detail: string): never => {
      throw new PlurnkExecsError('invalid-declaration', `exec runtime declaration invalid: ${owner} ${detail}`);
    };
    if (typeof value !== 'string' || value === '')
      return fail(`must declare a string name matching ${SYNTAX} (lowercase URI-scheme syntax)`);
    if (!PATTERN.test(value)) return fail(`name '${value}' must match ${SYNTAX} (lowercase URI-scheme syntax)`);
    const key = RESERVED.get(value);
    if (key !== undefined) return fail(`name '${value}' is reserved by ${key}`);
    return value;
  }

  /** True when `name` is reserved (currently only `only`). */
  static isReserved(name: string): boolean {
    return RESERVED.has(name);
  }

  /** The configuration key that owns a reserved name, or undefined. */
  static reservedBy(name: string): string | undefined {
    return RESERVED.get(name);
  }
}
// The grammar is shared by discovery, policy and every caller: nobody gets to redefine it.
Object.freeze(RuntimeTag);

const PATTERN = /^[a-z][a-z0-9+.-]*$/;

// `only` would collide with PLURNK_EXECS_ONLY, the allowlist key: a tag named `only` could
// never be switched off on its own.
const RESERVED: ReadonlyMap<string, string> = new Map([['only', 'PLURNK_EXECS_ONLY']]);

/**
 * The runtime-tag grammar (§executor-tool-document, runtime-name admission). A tag is the
 * EXEC selector, the registry key, the tool-family identity and the output URI scheme, so it
 * is canonical lowercase RFC 3986 scheme syntax: `[a-z][a-z0-9+.-]*`. `only` is reserved.
 */
export const RuntimeTag = Object.freeze({
  /** The tag syntax as a regular expression (reserved names match it too). */
  PATTERN,
  /** The tag syntax as text, for messages. */
  SYNTAX: '[a-z][a-z0-9+.-]*',
  /** Names that match the syntax but can never be tags. */
  RESERVED: Object.freeze([...RESERVED.keys()]) as readonly string[],

  /** True when `name` is an admissible runtime tag: the syntax, and not reserved. */
  isValid(name: unknown): name is string {
    return typeof name === 'string' && PATTERN.test(name) && !RESERVED.has(name);
  },

  /** 1.x's name for {@link RuntimeTag.isValid}. */
  is(name: unknown): name is string {
    return RuntimeTag.isValid(name);
  },

  /** True when `name` is reserved (currently only `only`). */
  isReserved(name: string): boolean {
    return RESERVED.has(name);
  },

  /** The configuration key that owns a reserved name, or undefined. */
  reservedBy(name: string): string | undefined {
    return RESERVED.get(name);
  },
});

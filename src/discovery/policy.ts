import { RuntimeTag } from './runtime-tag.js';

const PREFIX = 'plurnk_execs_';
const ONLY = 'only';

/**
 * Subtractive runtime policy (§executor-policy). Keys are matched case-insensitively:
 * `PLURNK_EXECS_<TAG>=0` or `false` removes one tag; `PLURNK_EXECS_ONLY=<a,b>` — when present
 * at all, even empty — removes every tag it does not list. No layer can re-enable a tag that
 * another layer removed.
 */
export const Policy = Object.freeze({
  /** True for `PLURNK_EXECS_ONLY` or `PLURNK_EXECS_<suffix>` whose lowercased suffix is a valid tag. */
  isKey(key: string): boolean {
    const suffix = readPolicySuffix(key);
    return suffix !== undefined && (suffix === ONLY || RuntimeTag.isValid(suffix));
  },

  /** The canonical key that switches `tag` on or off: `PLURNK_EXECS_<TAG>`. */
  keyFor(tag: string): string {
    return `PLURNK_EXECS_${tag.toUpperCase()}`;
  },

  /** Whether one env layer (default `process.env`, as 1.x) leaves `tag` enabled. */
  isEnabled(tag: string, env: NodeJS.ProcessEnv = process.env): boolean {
    const wanted = tag.toLowerCase();
    for (const [key, value] of Object.entries(env)) {
      if (value === undefined) continue;
      const suffix = readPolicySuffix(key);
      if (suffix === ONLY) {
        if (!parseAllowlist(value).has(wanted)) return false;
      } else if (suffix === wanted && isOff(value)) {
        return false;
      }
    }
    return true;
  },

  /** Whether every layer enables `tag` (the intersection; an empty list of layers removes nothing). */
  enabledAcross(tag: string, layers: readonly NodeJS.ProcessEnv[]): boolean {
    return layers.every((layer) => Policy.isEnabled(tag, layer));
  },
});

/** The lowercased part after `PLURNK_EXECS_`, or undefined when `key` is not in that family. */
function readPolicySuffix(key: string): string | undefined {
  const lower = key.toLowerCase();
  return lower.startsWith(PREFIX) ? lower.slice(PREFIX.length) : undefined;
}

function isOff(value: string): boolean {
  const word = value.trim().toLowerCase();
  return word === '0' || word === 'false';
}

function parseAllowlist(value: string): Set<string> {
  return new Set(
    value
      .split(',')
      .map((tag) => tag.trim().toLowerCase())
      .filter((tag) => tag !== ''),
  );
}

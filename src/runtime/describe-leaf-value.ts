/** How many characters a description of a leaf's value may take by default. */
export const DESCRIBE_MAX_CHARS = 120;
/** How deep into nested objects a description looks before it writes `…`. */
const MAX_DEPTH = 4;
/** How many entries of one object or array a description lists. */
const MAX_ENTRIES = 8;

/**
 * A short, bounded rendering of a value a leaf sent, for violation texts and Problem details.
 * Never throws and never walks more than a few entries: a leaf value may be cyclic, a BigInt,
 * megabytes long or a million keys wide, and `JSON.stringify` on it inside a port listener
 * crashed the host. Small plain values render as their JSON (`"bogus"`, `{"a":1}`), so
 * messages read as before; anything longer is cut at `maxChars` with `…`.
 */
export function describeLeafValue(value: unknown, maxChars = DESCRIBE_MAX_CHARS): string {
  let text: string;
  try {
    text = render(value, 0, new Set(), maxChars + 1);
  } catch {
    text = `a ${typeof value}`;
  }
  return clipText(text, maxChars);
}

/** Renders `value` with at most about `budget` characters of output. */
function render(value: unknown, depth: number, seen: Set<object>, budget: number): string {
  switch (typeof value) {
    case 'undefined':
      return 'undefined';
    case 'bigint':
      return `${value}n`;
    case 'symbol':
      return value.toString();
    case 'function':
      return 'a function';
    case 'number':
    case 'boolean':
      return String(value);
    case 'string':
      // Only the head of a long string is ever quoted: the rest is counted, not copied.
      return value.length > budget
        ? `${JSON.stringify(value.slice(0, budget))}… (${value.length} chars)`
        : JSON.stringify(value);
  }
  if (value === null) return 'null';
  const object = value as object;
  if (seen.has(object)) return '[cycle]';
  if (depth >= MAX_DEPTH) return Array.isArray(object) ? '[…]' : '{…}';
  const tag = Object.prototype.toString.call(object);
  if (!Array.isArray(object) && tag !== '[object Object]') return tag;
  seen.add(object);
  const parts: string[] = [];
  let used = 2;
  let count = 0;
  // for…in stops early; Object.keys would list a million keys first.
  for (const key in object) {
    if (!Object.hasOwn(object, key)) continue;
    if (count === MAX_ENTRIES || used > budget) {
      parts.push('…');
      break;
    }
    const item = render((object as Record<string, unknown>)[key], depth + 1, seen, budget - used);
    const part = Array.isArray(object) ? item : `${JSON.stringify(key.slice(0, 40))}:${item}`;
    parts.push(part);
    used += part.length + 1;
    count++;
  }
  seen.delete(object);
  return Array.isArray(object) ? `[${parts.join(',')}]` : `{${parts.join(',')}}`;
}

/** `text` cut to at most `maxChars` characters, with `…` where it was cut. */
export function clipText(text: string, maxChars: number): string {
  return text.length > maxChars ? `${text.slice(0, Math.max(0, maxChars - 1))}…` : text;
}

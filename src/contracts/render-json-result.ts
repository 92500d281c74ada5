/** What `JSON.stringify` accepts as a replacer: a function, or the list of keys to keep. */
export type JsonReplacer = ((this: unknown, key: string, value: unknown) => unknown) | (string | number)[] | null;

/**
 * Renders a generated JSON value for a `results` channel (§json-result-rendering), with 1.x's
 * layout: `JSON.stringify(value, replacer)`, then, when that is a top-level array, a newline
 * after each comma between its items (`[1,\n2,\n3]`), so each item starts a physical line.
 * Empty and one-item arrays and every other value stay on one line; the text re-parses to
 * the same value. `replacer` is honoured as `JSON.stringify` would (leaves pass a BigInt ⇒
 * string replacer).
 *
 * @throws TypeError "must serialize to a JSON value" when `value` has no JSON text (undefined,
 *   a function, a symbol); whatever `JSON.stringify` throws (a BigInt without a replacer, a cycle).
 */
export function renderJsonResult(value: unknown, replacer?: JsonReplacer): string {
  const text = JSON.stringify(value, replacer as Parameters<typeof JSON.stringify>[1]);
  if (text === undefined) {
    throw new TypeError(`renderJsonResult: the value (${typeof value}) must serialize to a JSON value`);
  }
  return text.startsWith('[') ? breakTopLevelItems(text) : text;
}

/** Inserts `\n` after every comma at depth 1 of `text`, outside strings. */
function breakTopLevelItems(text: string): string {
  let out = '';
  let depth = 0;
  let inString = false;
  let from = 0;
  for (let i = 0; i < text.length; i++) {
    const ch = text[i];
    if (inString) {
      if (ch === '\\') i++;
      else if (ch === '"') inString = false;
    } else if (ch === '"') inString = true;
    else if (ch === '[' || ch === '{') depth++;
    else if (ch === ']' || ch === '}') depth--;
    else if (ch === ',' && depth === 1) {
      out += `${text.slice(from, i + 1)}\n`;
      from = i + 1;
    }
  }
  return out + text.slice(from);
}

/**
 * Renders a generated JSON value for a `results` channel (§json-result-rendering): a top-level
 * array of two or more items puts one item per physical line, so each item is addressable by
 * line; any other value stays on one line. The output always re-parses to the same value.
 *
 * @throws TypeError when `value` has no JSON representation (undefined, a function, a symbol).
 */
export function renderJsonResult(value: unknown): string {
  if (Array.isArray(value) && value.length >= 2) {
    // JSON.stringify turns holes, undefined and functions inside an array into null; keep that.
    const lines = value.map((item) => JSON.stringify(item) ?? 'null');
    return `[\n${lines.join(',\n')}\n]`;
  }
  const text = JSON.stringify(value);
  if (text === undefined) throw new TypeError(`renderJsonResult: ${typeof value} has no JSON representation`);
  return text;
}

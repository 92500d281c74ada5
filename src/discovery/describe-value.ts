const LIMIT = 80;

/**
 * A short, readable rendering of a value someone supplied, for error messages: JSON where it
 * can be, `nothing` for undefined, and a type word for what JSON cannot show. Long renderings
 * are cut so one bad field cannot flood a boot log.
 */
export function describeValue(value: unknown): string {
  if (value === undefined) return 'nothing';
  if (typeof value === 'function') return 'a function';
  if (typeof value === 'symbol') return value.toString();
  if (typeof value === 'bigint') return `${value}n`;
  if (typeof value === 'number') return String(value);
  let text: string | undefined;
  try {
    text = JSON.stringify(value);
  } catch {
    text = undefined;
  }
  if (text === undefined) text = Object.prototype.toString.call(value);
  return text.length > LIMIT ? `${text.slice(0, LIMIT - 3)}...` : text;
}

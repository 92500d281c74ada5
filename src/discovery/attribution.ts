import * as v from 'valibot';
import { PlurnkExecsError } from '../contracts/errors.js';
import { describeValue } from './describe-value.js';

const RESERVED_PREFIX = '@plurnk/';

const AttributionTagSchema = v.pipe(v.string(), v.nonEmpty());

/** The static `plurnk.attribution` shape: one non-empty string, an array of them, or null. */
export const AttributionSchema: v.GenericSchema<string | string[] | null | undefined> = v.nullish(
  v.union([AttributionTagSchema, v.array(AttributionTagSchema)]),
);

/**
 * Normalizes a package's `plurnk.attribution` (§plugin-attribution): a string becomes a
 * one-tag list, an array is kept in order, and null, absence and `[]` all mean "no tags"
 * (null). A malformed declaration, or a tag beginning `@plurnk/` declared by a package outside
 * `@plurnk/*`, fails hard naming the package.
 */
export function normalizeAttribution(raw: unknown, packageName: string): readonly string[] | null {
  if (!v.is(AttributionSchema, raw)) {
    throw new PlurnkExecsError(
      'invalid-declaration',
      `Invalid attribution in package "${packageName}": plurnk.attribution must be a non-empty string or an array of non-empty strings; received ${describeValue(raw)}. Fix: write "plurnk": { "attribution": "@you/your-tag" }, a list of such strings, or leave it out.`,
    );
  }
  if (raw === null || raw === undefined) return null;
  const tags = typeof raw === 'string' ? [raw] : [...raw];
  if (tags.length === 0) return null;
  const firstParty = packageName.startsWith(RESERVED_PREFIX);
  const claimed = tags.find((tag) => tag.startsWith(RESERVED_PREFIX));
  if (claimed !== undefined && !firstParty) {
    throw new PlurnkExecsError(
      'invalid-declaration',
      `Invalid attribution in package "${packageName}": plurnk.attribution tag ${JSON.stringify(claimed)} begins "${RESERVED_PREFIX}", which is reserved to @plurnk/* packages. Fix: attribute under your own name or scope instead.`,
    );
  }
  return Object.freeze(tags);
}

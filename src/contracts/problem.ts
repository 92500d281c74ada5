import * as v from 'valibot';
import { schemaAgrees, type MutuallyAssignable } from './same-type.js';
import { isJsonValue } from './json.js';

/** Base of every Problem `type` URI this package mints (plurnk 1.x's root); the owner path and code follow. */
export const PROBLEM_TYPE_BASE = 'https://problems.plurnk.xyz/';

/** Grammar of a Problem code: lowercase words joined by hyphens (`nonzero-exit`). */
export const PROBLEM_CODE = /^[a-z][a-z0-9]*(?:-[a-z0-9]+)*$/;

/** Grammar of a Problem owner: colon-separated lowercase names (`executor:jq`, `scheme:exec`). */
export const PROBLEM_OWNER = /^[a-z][a-z0-9-]*(?::[a-z][a-z0-9-]*)*$/;

const RESERVED = new Set(['type', 'title', 'status', 'detail', 'instance']);

/**
 * RFC 9457 Problem Details as results carry them: an absolute `type` URI, a non-empty
 * `title`, a `status` 400–599 equal to the result's, a `detail`, an optional `instance`, and
 * extensions (such as `recovery`) that are plain JSON or `undefined` — a member left
 * undefined (`errorCode: err.code`) is what JSON drops, as 1.x leaves expect.
 */
export interface ProblemDetails {
  type: string;
  title: string;
  status: number;
  detail: string;
  instance?: string;
  [extension: string]: unknown;
}

const problemDetailsSchema = v.pipe(
  v.looseObject({
    type: v.pipe(v.string(), v.check(isAbsoluteUri, 'type must be an absolute URI')),
    title: v.pipe(v.string(), v.nonEmpty('title must not be empty')),
    status: v.pipe(v.number(), v.integer('status must be an integer'), v.minValue(400), v.maxValue(599)),
    detail: v.string(),
    instance: v.optional(v.pipe(v.string(), v.check(isAbsoluteUri, 'instance must be an absolute URI'))),
  }),
  v.rawCheck(({ dataset, addIssue }) => {
    if (!dataset.typed) return;
    for (const [key, value] of Object.entries(dataset.value)) {
      if (!RESERVED.has(key) && value !== undefined && !isJsonValue(value)) {
        addIssue({ message: `extension ${JSON.stringify(key)} must be plain JSON` });
      }
    }
  }),
);
schemaAgrees<MutuallyAssignable<v.InferOutput<typeof problemDetailsSchema>, ProblemDetails>>();
/** Schema of {@link ProblemDetails}. */
export const ProblemDetailsSchema: v.GenericSchema<ProblemDetails> = problemDetailsSchema;

/**
 * Builds the `type` URI for a code reported by `owner`, as 1.x does:
 * `https://problems.plurnk.xyz/<owner, ':' ⇒ '/'>/<code>` (`executor:jq` ⇒ `…/executor/jq/<code>`).
 *
 * @throws RangeError when the owner or the code does not follow its grammar.
 */
export function problemType(owner: string, code: string): string {
  if (!PROBLEM_OWNER.test(owner)) {
    throw new RangeError(
      `problem owner must match ${PROBLEM_OWNER.source} (such as "executor:jq"), received ${JSON.stringify(owner)}`,
    );
  }
  if (!PROBLEM_CODE.test(code)) {
    throw new RangeError(`problem code must be lowercase-hyphenated, received ${JSON.stringify(code)}`);
  }
  return `${PROBLEM_TYPE_BASE}${owner.replaceAll(':', '/')}/${code}`;
}

/** The code a Problem `type` ends in: its last path segment. */
export function problemCode(type: string): string {
  return type.slice(type.lastIndexOf('/') + 1);
}

/** `nonzero-exit` ⇒ `Nonzero exit`. */
export function humaniseCode(code: string): string {
  const words = code.split('-').join(' ');
  return words.charAt(0).toUpperCase() + words.slice(1);
}

function isAbsoluteUri(text: string): boolean {
  return /^[a-zA-Z][a-zA-Z0-9+.-]*:/.test(text);
}

import * as v from 'valibot';
import { schemaAgrees, type MutuallyAssignable } from './same-type.js';
import { isJsonValue } from './json.js';

/** Base of every Problem `type` URI this package mints; the owner and code follow. */
export const PROBLEM_TYPE_BASE = 'https://plurnk.dev/problems/';

/** Grammar of a Problem code: lowercase words joined by hyphens (`nonzero-exit`). */
export const PROBLEM_CODE = /^[a-z][a-z0-9]*(?:-[a-z0-9]+)*$/;

const RESERVED = new Set(['type', 'title', 'status', 'detail', 'instance']);

/**
 * RFC 9457 Problem Details as results carry them: an absolute `type` URI ending in
 * `/<code>`, a humanised `title`, a `status` 400–599 equal to the result's, a `detail`, an
 * optional `instance`, and JSON-safe extensions (such as `recovery`).
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
    type: v.pipe(
      v.string(),
      v.check(isAbsoluteUri, 'type must be an absolute URI'),
      v.check((type) => PROBLEM_CODE.test(problemCode(type)), 'type must end in /<code> (lowercase, hyphenated)'),
    ),
    title: v.pipe(v.string(), v.nonEmpty('title must not be empty')),
    status: v.pipe(v.number(), v.integer('status must be an integer'), v.minValue(400), v.maxValue(599)),
    detail: v.string(),
    instance: v.optional(v.string()),
  }),
  v.rawCheck(({ dataset, addIssue }) => {
    if (!dataset.typed) return;
    for (const [key, value] of Object.entries(dataset.value)) {
      if (!RESERVED.has(key) && !isJsonValue(value)) {
        addIssue({ message: `extension ${JSON.stringify(key)} must be plain JSON` });
      }
    }
  }),
);
schemaAgrees<MutuallyAssignable<v.InferOutput<typeof problemDetailsSchema>, ProblemDetails>>();
/** Schema of {@link ProblemDetails}. */
export const ProblemDetailsSchema: v.GenericSchema<ProblemDetails> = problemDetailsSchema;

/** Builds the `type` URI for a code reported by `owner` (a tag, package or component name). */
export function problemType(owner: string, code: string): string {
  return `${PROBLEM_TYPE_BASE}${encodeURIComponent(owner)}/${code}`;
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
  return /^[A-Za-z][A-Za-z0-9+.-]*:/.test(text) && URL.canParse(text);
}

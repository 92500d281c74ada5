import * as v from 'valibot';
import { isJsonValue } from './json.js';
import { ProblemDetailsSchema } from './problem.js';

const StatusSchema = v.pipe(v.number(), v.integer('status must be an integer'), v.minValue(100), v.maxValue(599));

const SafeInteger = v.pipe(v.number(), v.safeInteger());

/**
 * 1.x `scopeNormalizations`: a non-empty list of `{requested: [3 integers], canonical: [4
 * integers]}` where the canonical coordinates keep the requested ones as their prefix.
 */
export const ScopeNormalizationsSchema = v.pipe(
  v.array(
    v.pipe(
      v.strictObject({
        requested: v.tuple([SafeInteger, SafeInteger, SafeInteger]),
        canonical: v.tuple([SafeInteger, SafeInteger, SafeInteger, SafeInteger]),
      }),
      v.check(
        ({ requested, canonical }) => requested.every((n, i) => canonical[i] === n),
        'canonical coordinates must keep the requested ones as their prefix',
      ),
    ),
  ),
  v.minLength(1, 'scopeNormalizations must not be empty'),
);
/** How a consumer normalised a requested scope (1.x `ScopeNormalization`). */
export type ScopeNormalization = v.InferOutput<typeof ScopeNormalizationsSchema>[number];

/**
 * The universal result of `run()` (§executor-results). A status of 400 or more carries exactly
 * one Problem whose status agrees; a status below 400 carries none. Further fields are the
 * scheme's own (1.x `[field: string]: unknown`).
 */
export const SchemeResultSchema = v.looseObject({
  status: StatusSchema,
  problem: v.optional(ProblemDetailsSchema),
  scopeNormalizations: v.optional(ScopeNormalizationsSchema),
});
/** The universal result of `run()`. */
export type SchemeResult = v.InferOutput<typeof SchemeResultSchema>;

const RESULT_MEMBERS = new Set(['status', 'problem', 'exitCode', 'scopeNormalizations']);

/**
 * `SchemeResult` plus the optional exit code of a subprocess. As in 1.x, a result may carry
 * further fields of its own (plain JSON, or `undefined`); only `error` is forbidden.
 */
export const ExecResultSchema = v.pipe(
  v.looseObject({
    status: StatusSchema,
    problem: v.optional(ProblemDetailsSchema),
    exitCode: v.optional(v.pipe(v.number(), v.integer('exitCode must be an integer'))),
    scopeNormalizations: v.optional(ScopeNormalizationsSchema),
  }),
  v.rawCheck(({ dataset, addIssue }) => {
    if (!dataset.typed) return;
    for (const [key, value] of Object.entries(dataset.value)) {
      if (!RESULT_MEMBERS.has(key) && value !== undefined && !isJsonValue(value)) {
        addIssue({ message: `result field ${JSON.stringify(key)} must be plain JSON` });
      }
    }
  }),
  v.check((r) => r.status < 400 || r.problem !== undefined, 'a status of 400 or more needs a problem'),
  v.check((r) => r.status >= 400 || r.problem === undefined, 'a status below 400 carries no problem'),
  v.check((r) => r.problem === undefined || r.problem.status === r.status, 'problem.status must equal status'),
);
/** `SchemeResult` plus the optional exit code of a subprocess. */
export type ExecResult = v.InferOutput<typeof ExecResultSchema>;

/** Outcome of {@link validateResult}: the result, or every reason it was refused. */
export type ResultValidation = { ok: true; result: ExecResult } | { ok: false; issues: string[] };

/**
 * Checks a value returned by `run()` against the result contract. Never throws; an invalid
 * value comes back with one readable line per violation (`problem.status: …`).
 */
export function validateResult(value: unknown): ResultValidation {
  if (typeof value === 'object' && value !== null && 'error' in value) {
    return { ok: false, issues: ['error: results carry failures as `problem` (RFC 9457), never as `error`'] };
  }
  const parsed = v.safeParse(ExecResultSchema, value);
  if (parsed.success) return { ok: true, result: parsed.output };
  return { ok: false, issues: parsed.issues.map(describeIssue) };
}

/** One valibot issue as `path: message`. */
export function describeIssue(issue: v.BaseIssue<unknown>): string {
  const path = v.getDotPath(issue);
  return path ? `${path}: ${issue.message}` : issue.message;
}

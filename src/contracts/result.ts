import * as v from 'valibot';
import { isJsonValue } from './json.js';
import { ProblemDetailsSchema, type ProblemDetails } from './problem.js';
import { schemaAgrees, type MutuallyAssignable, type SameType } from './same-type.js';

const StatusSchema = v.pipe(v.number(), v.integer('status must be an integer'), v.minValue(100), v.maxValue(599));

const SafeInteger = v.pipe(v.number(), v.safeInteger());

/**
 * 1.x `scopeNormalizations`: a non-empty list of `{requested: [3 integers], canonical: [4
 * integers]}` where the canonical coordinates keep the requested ones as their prefix.
 */
export interface ScopeNormalization {
  requested: [number, number, number];
  canonical: [number, number, number, number];
}
const scopeNormalizationsSchema = v.pipe(
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
schemaAgrees<SameType<v.InferOutput<typeof scopeNormalizationsSchema>, ScopeNormalization[]>>();
/** Schema of a result's `scopeNormalizations` ({@link ScopeNormalization}, at least one). */
export const ScopeNormalizationsSchema: v.GenericSchema<ScopeNormalization[]> = scopeNormalizationsSchema;

/**
 * The universal result of `run()` (§executor-results). A status of 400 or more carries exactly
 * one Problem whose status agrees; a status below 400 carries none. Further fields are the
 * scheme's own (1.x `[field: string]: unknown`).
 */
export interface SchemeResult {
  status: number;
  problem?: ProblemDetails;
  scopeNormalizations?: ScopeNormalization[];
  [field: string]: unknown;
}
const schemeResultSchema = v.looseObject({
  status: StatusSchema,
  problem: v.optional(ProblemDetailsSchema),
  scopeNormalizations: v.optional(ScopeNormalizationsSchema),
});
schemaAgrees<MutuallyAssignable<v.InferOutput<typeof schemeResultSchema>, SchemeResult>>();
/** Schema of {@link SchemeResult}. */
export const SchemeResultSchema: v.GenericSchema<SchemeResult> = schemeResultSchema;

const RESULT_MEMBERS = new Set(['status', 'problem', 'exitCode', 'scopeNormalizations']);

/**
 * `SchemeResult` plus the optional exit code of a subprocess. As in 1.x, a result may carry
 * further fields of its own (plain JSON, or `undefined`); only `error` is forbidden.
 */
export interface ExecResult extends SchemeResult {
  exitCode?: number;
}
const execResultSchema = v.pipe(
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
schemaAgrees<MutuallyAssignable<v.InferOutput<typeof execResultSchema>, ExecResult>>();
/** Schema of {@link ExecResult}. */
export const ExecResultSchema: v.GenericSchema<ExecResult> = execResultSchema;

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

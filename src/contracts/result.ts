import * as v from 'valibot';
import { schemaAgrees, type SameType } from './same-type.js';
import { ProblemDetailsSchema, type ProblemDetails } from './problem.js';

const StatusSchema = v.pipe(v.number(), v.integer('status must be an integer'), v.minValue(100), v.maxValue(599));

/**
 * The universal result of `run()` (§executor-results). A status of 400 or more carries exactly
 * one Problem whose status agrees; a status below 400 carries none.
 */
export interface SchemeResult {
  status: number;
  problem?: ProblemDetails;
}
const schemeResultSchema = v.strictObject({
  status: StatusSchema,
  problem: v.optional(ProblemDetailsSchema),
});
schemaAgrees<SameType<v.InferOutput<typeof schemeResultSchema>, SchemeResult>>();
/** Schema of {@link SchemeResult}. */
export const SchemeResultSchema: v.GenericSchema<SchemeResult> = schemeResultSchema;

/** `SchemeResult` plus the optional exit code of a subprocess. */
export interface ExecResult extends SchemeResult {
  exitCode?: number;
}
const execResultSchema = v.pipe(
  v.strictObject({
    status: StatusSchema,
    problem: v.optional(ProblemDetailsSchema),
    exitCode: v.optional(v.pipe(v.number(), v.integer('exitCode must be an integer'))),
  }),
  v.check((r) => r.status < 400 || r.problem !== undefined, 'a status of 400 or more needs a problem'),
  v.check((r) => r.status >= 400 || r.problem === undefined, 'a status below 400 carries no problem'),
  v.check((r) => r.problem === undefined || r.problem.status === r.status, 'problem.status must equal status'),
);
schemaAgrees<SameType<v.InferOutput<typeof execResultSchema>, ExecResult>>();
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

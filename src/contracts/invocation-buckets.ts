import type { RuntimeInvocation } from './invocation.js';

/** Why an EXEC does not fit its runtime's invocation buckets; each becomes a 400 Problem. */
export type BucketCode =
  'target-not-supported' | 'body-required' | 'target-required' | 'input-required' | 'input-conflict';

/** One bucket violation: the Problem code and a detail that says what to supply instead. */
export interface BucketViolation {
  code: BucketCode;
  detail: string;
}

/**
 * Checks one EXEC's body and target against an invocation contract (§executor-invocation),
 * before effect admission. A whitespace-only body and an empty target count as absent.
 * Returns the first violation in a fixed order, or undefined when the EXEC fits.
 */
export function checkInvocationBuckets(
  runtime: string,
  invocation: RuntimeInvocation,
  body: string,
  target: string | null,
): BucketViolation | undefined {
  const hasBody = body.trim() !== '';
  const hasTarget = target !== null && target !== '';
  if (hasTarget && invocation.target === undefined) {
    return { code: 'target-not-supported', detail: `${runtime} accepts no target; received ${JSON.stringify(target)}` };
  }
  if (!hasBody && invocation.body.required === true) {
    return { code: 'body-required', detail: `${runtime} needs a body (${invocation.body.role})` };
  }
  if (!hasTarget && invocation.target?.required === true) {
    return { code: 'target-required', detail: `${runtime} needs a target (${invocation.target.role})` };
  }
  if (!hasBody && !hasTarget) {
    return { code: 'input-required', detail: `${runtime} needs a body or a target; received neither` };
  }
  if (hasBody && hasTarget && invocation.exclusive === true) {
    return { code: 'input-conflict', detail: `${runtime} takes a body or a target, not both` };
  }
  return undefined;
}

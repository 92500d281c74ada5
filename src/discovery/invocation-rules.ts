import * as v from 'valibot';
import { checkInvocationBuckets, type BucketCode } from '../contracts/invocation-buckets.js';
import type { RuntimeInvocation } from '../contracts/invocation.js';
import { runtimeInvocationShape } from '../contracts/invocation-shape.js';

// How an example that misses its own buckets is described, per bucket code.
const EXAMPLE_MISSES: Record<BucketCode, string> = {
  'target-not-supported': 'gives a target, but the invocation declares no target',
  'body-required': 'has no body, but body.required is true',
  'target-required': 'has no target, but target.required is true',
  'input-required': 'gives neither a body nor a target',
  'input-conflict': 'gives both a body and a target, but exclusive is true',
};

/**
 * Every cross-field rule of §executor-invocation on top of the structural
 * `RuntimeInvocationSchema`: `exclusive` needs a target declaration; `directory` is valid
 * only for `path` and `resource` targets; exactly one of `example`, `signature` or
 * `inputSchema` (the later 1.x alternative); and the example satisfies the invocation's own
 * required, refused and exclusive buckets. Each violation is an issue on the field that has to
 * change.
 */
export const InvocationRulesSchema: v.GenericSchema<RuntimeInvocation> = v.pipe(
  runtimeInvocationShape,
  v.forward(
    v.check(
      (inv) => inv.exclusive !== true || inv.target !== undefined,
      'is true, but exclusive needs a target declaration (invocation.target)',
    ),
    ['exclusive'],
  ),
  v.forward(
    v.check(
      (inv) => inv.target?.directory === undefined || inv.target.kind === 'path' || inv.target.kind === 'resource',
      (issue) =>
        `is only valid for "path" and "resource" targets, and this target's kind is ${JSON.stringify((issue.input as RuntimeInvocation).target?.kind)}`,
    ),
    ['target', 'directory'],
  ),
  v.forward(
    v.check(
      (inv) => !(inv.example !== undefined && inv.signature !== undefined),
      'is declared together with an example; keep exactly one of example, signature or inputSchema',
    ),
    ['signature'],
  ),
  v.forward(
    v.check(
      (inv) => inv.inputSchema === undefined || (inv.example === undefined && inv.signature === undefined),
      (issue) =>
        `is declared together with ${(issue.input as RuntimeInvocation).example === undefined ? 'a signature' : 'an example'}; keep exactly one of example, signature or inputSchema`,
    ),
    ['inputSchema'],
  ),
  v.forward(
    v.check(
      (inv) => inv.example !== undefined || inv.signature !== undefined || inv.inputSchema !== undefined,
      'is required when there is no signature or inputSchema',
    ),
    ['example'],
  ),
  v.forward(
    v.check(
      (inv) => explainExampleMiss(inv) === undefined,
      (issue) =>
        `${explainExampleMiss(issue.input as RuntimeInvocation) ?? 'does not fit its buckets'}, so it does not satisfy its own invocation`,
    ),
    ['example'],
  ),
);

/** Why `invocation.example` does not fit the invocation's buckets, or undefined when it does (or is absent). */
export function explainExampleMiss(invocation: RuntimeInvocation): string | undefined {
  const example = invocation.example;
  if (example === undefined) return undefined;
  const violation = checkInvocationBuckets('example', invocation, example.body ?? '', example.target ?? null);
  return violation === undefined ? undefined : EXAMPLE_MISSES[violation.code];
}

/**
 * The normalized form discovery carries: explicit `required` booleans and `exclusive`, only
 * the fields that were declared, frozen all the way down (an `inputSchema` is a frozen copy).
 */
export function normalizeInvocation(invocation: RuntimeInvocation): RuntimeInvocation {
  const { body, target, example, signature, inputSchema } = invocation;
  return Object.freeze({
    body: Object.freeze({ role: body.role, required: body.required === true }),
    ...(target === undefined
      ? {}
      : {
          target: Object.freeze({
            role: target.role,
            required: target.required === true,
            kind: target.kind,
            ...(target.directory === undefined ? {} : { directory: target.directory }),
          }),
        }),
    exclusive: invocation.exclusive === true,
    ...(example === undefined
      ? {}
      : {
          example: Object.freeze({
            ...(example.body === undefined ? {} : { body: example.body }),
            ...(example.target === undefined ? {} : { target: example.target }),
          }),
        }),
    ...(signature === undefined ? {} : { signature }),
    ...(inputSchema === undefined ? {} : { inputSchema: freezeJson(structuredClone(inputSchema)) }),
  });
}

/** `value` (plain JSON, validated) frozen all the way down. */
function freezeJson<T>(value: T): T {
  if (typeof value === 'object' && value !== null) {
    for (const member of Object.values(value)) freezeJson(member);
    Object.freeze(value);
  }
  return value;
}

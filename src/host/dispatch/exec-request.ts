import * as v from 'valibot';
import { EffectSchema, type Effect } from '../../contracts/effect.js';
import { PlurnkExecsError } from '../../contracts/errors.js';
import { describeIssue } from '../../contracts/result.js';
import type { EmbeddingSinks, ExecRequest, StreamAddress } from '../host-types.js';

const Count = v.pipe(v.number(), v.integer(), v.minValue(0));
const Sink = v.optional(v.function());

const execRequestShape = v.strictObject({
  runtime: v.string(),
  body: v.string(),
  target: v.optional(v.nullable(v.string())),
  cwd: v.optional(v.nullable(v.string())),
  env: v.optional(v.record(v.string(), v.optional(v.string()))),
  signal: v.optional(v.instance(AbortSignal)),
  timeoutMs: v.optional(v.pipe(v.number(), v.finite(), v.minValue(1))),
  address: v.optional(v.strictObject({ loop: Count, turn: Count, sequence: Count })),
  sinks: v.optional(v.strictObject({ write: Sink, setState: Sink, emit: Sink, interact: Sink, entry: Sink })),
  effect: v.optional(EffectSchema),
});

/**
 * Schema of {@link ExecRequest}: strict, so a misspelt field is an error rather than ignored.
 * Sinks are checked only as functions, so its output is not typed as a whole request.
 */
export const ExecRequestSchema: v.GenericSchema<unknown> = execRequestShape;

/** An EXEC request checked and normalized: absent fields are null, env values are all strings. */
export interface ParsedExecRequest {
  runtime: string;
  body: string;
  target: string | null;
  cwd: string | null;
  env: Record<string, string> | undefined;
  signal: AbortSignal | undefined;
  timeoutMs: number | undefined;
  address: StreamAddress | undefined;
  sinks: EmbeddingSinks | undefined;
  /** The admission fact the service already took (`host.effect()` at proposal), or undefined. */
  effect: Effect | undefined;
}

/**
 * Checks an EXEC request. Throws `invalid-request` naming every bad field: a malformed
 * request is the embedding service's bug, not a run outcome. The caller's `signal` and
 * `sinks` objects are kept as given, so sink methods keep their `this`.
 */
export function parseExecRequest(input: ExecRequest): ParsedExecRequest {
  const parsed = v.safeParse(execRequestShape, input);
  if (!parsed.success) {
    throw new PlurnkExecsError(
      'invalid-request',
      `invalid exec request: ${parsed.issues.map(describeIssue).join('; ')}`,
    );
  }
  const { runtime, body, target, cwd, env, timeoutMs, address, effect } = parsed.output;
  return {
    runtime,
    body,
    target: target ?? null,
    cwd: cwd ?? null,
    env: env === undefined ? undefined : definedValues(env),
    signal: input.signal,
    timeoutMs,
    address,
    sinks: input.sinks,
    effect,
  };
}

function definedValues(env: Record<string, string | undefined>): Record<string, string> {
  const defined: Record<string, string> = {};
  for (const [key, value] of Object.entries(env)) if (value !== undefined) defined[key] = value;
  return defined;
}

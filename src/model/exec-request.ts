import * as v from 'valibot';
import type { Effect } from '../contracts/effect.js';
import { PlurnkExecsError } from '../contracts/errors.js';
import { describeIssue } from '../contracts/result.js';
import { ExecRequestSchema } from './host-schemas.js';
import type { EmbeddingSinks, ExecRequest, StreamAddress } from './host-types.js';

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
  const parsed = v.safeParse(ExecRequestSchema, input);
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

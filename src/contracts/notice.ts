import * as v from 'valibot';
import { JsonValueSchema } from './json.js';

// The runtime-neutral Notice and interaction types belong to @plurnk/plurnk-contracts, which
// is not published where this package is built; these are their shapes as this package
// enforces them at the thread boundary, and will become re-exports when it is.

/** A transient, nonterminal observation published through `emit` (progress, a log line). */
export const NoticeSchema = v.strictObject({
  kind: v.picklist(['progress', 'info', 'warning']),
  message: v.string(),
  /** Fraction done, 0–1, for `progress`. */
  progress: v.optional(v.pipe(v.number(), v.minValue(0), v.maxValue(1))),
  data: v.optional(JsonValueSchema),
});
/** A transient, nonterminal observation published through `emit`. */
export type Notice = v.InferOutput<typeof NoticeSchema>;

/** One client interaction an executor awaits through `interact` (§executor-interaction-sink). */
export const ClientInteractionRequestSchema = v.strictObject({
  /** What is asked: `confirm`, `choose`, `input`, or an executor-owned kind. */
  kind: v.pipe(v.string(), v.nonEmpty()),
  prompt: v.string(),
  payload: v.optional(JsonValueSchema),
});
/** One client interaction an executor awaits through `interact`. */
export type ClientInteractionRequest = v.InferOutput<typeof ClientInteractionRequestSchema>;

/** How the client answered an interaction; the executor owns the payload's meaning. */
export const ClientInteractionResolutionSchema = v.strictObject({
  outcome: v.picklist(['accepted', 'declined', 'cancelled']),
  payload: v.optional(JsonValueSchema),
});
/** How the client answered an interaction. */
export type ClientInteractionResolution = v.InferOutput<typeof ClientInteractionResolutionSchema>;

/**
 * The bytes a notice counts against a run's notice budget: its message and its data as JSON
 * (UTF-8). Both sides of the thread count the same way. Never throws: a value that cannot be
 * measured counts as 0 here and is refused by the host's validation.
 */
export function measureNotice(notice: unknown): number {
  try {
    const { message, data } = notice as { message?: unknown; data?: unknown };
    const text = typeof message === 'string' ? message : '';
    return Buffer.byteLength(text, 'utf8') + (data === undefined ? 0 : Buffer.byteLength(JSON.stringify(data), 'utf8'));
  } catch {
    return 0;
  }
}

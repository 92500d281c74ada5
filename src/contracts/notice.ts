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

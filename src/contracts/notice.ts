import * as v from 'valibot';
import { JsonValueSchema, type JsonValue } from './json.js';
import { schemaAgrees, type SameType } from './same-type.js';

// The runtime-neutral Notice and interaction types belong to @plurnk/plurnk-contracts, which
// is not published where this package is built; these are their shapes as this package
// enforces them at the thread boundary, and will become re-exports when it is.

/** A transient, nonterminal observation published through `emit` (progress, a log line). */
export interface Notice {
  kind: 'progress' | 'info' | 'warning';
  message: string;
  /** Fraction done, 0–1, for `progress`. */
  progress?: number;
  data?: JsonValue;
}

const noticeSchema = v.strictObject({
  kind: v.picklist(['progress', 'info', 'warning']),
  message: v.string(),
  /** Fraction done, 0–1, for `progress`. */
  progress: v.optional(v.pipe(v.number(), v.minValue(0), v.maxValue(1))),
  data: v.optional(JsonValueSchema),
});
schemaAgrees<SameType<v.InferOutput<typeof noticeSchema>, Notice>>();
/** Schema of {@link Notice}. */
export const NoticeSchema: v.GenericSchema<Notice> = noticeSchema;

/** One client interaction an executor awaits through `interact` (§executor-interaction-sink). */
export interface ClientInteractionRequest {
  /** What is asked: `confirm`, `choose`, `input`, or an executor-owned kind. */
  kind: string;
  prompt: string;
  payload?: JsonValue;
}

const clientInteractionRequestSchema = v.strictObject({
  /** What is asked: `confirm`, `choose`, `input`, or an executor-owned kind. */
  kind: v.pipe(v.string(), v.nonEmpty()),
  prompt: v.string(),
  payload: v.optional(JsonValueSchema),
});
schemaAgrees<SameType<v.InferOutput<typeof clientInteractionRequestSchema>, ClientInteractionRequest>>();
/** Schema of {@link ClientInteractionRequest}. */
export const ClientInteractionRequestSchema: v.GenericSchema<ClientInteractionRequest> = clientInteractionRequestSchema;

/** How the client answered an interaction; the executor owns the payload's meaning. */
export interface ClientInteractionResolution {
  outcome: 'accepted' | 'declined' | 'cancelled';
  payload?: JsonValue;
}

const clientInteractionResolutionSchema = v.strictObject({
  outcome: v.picklist(['accepted', 'declined', 'cancelled']),
  payload: v.optional(JsonValueSchema),
});
schemaAgrees<SameType<v.InferOutput<typeof clientInteractionResolutionSchema>, ClientInteractionResolution>>();
/** Schema of {@link ClientInteractionResolution}. */
export const ClientInteractionResolutionSchema: v.GenericSchema<ClientInteractionResolution> =
  clientInteractionResolutionSchema;

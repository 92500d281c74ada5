import * as v from 'valibot';
import { isJsonValue, JsonObjectSchema, JsonValueSchema, type JsonValue } from './json.js';
import { schemaAgrees, type MutuallyAssignable, type SameType } from './same-type.js';

// The runtime-neutral Notice and interaction types belong to @plurnk/plurnk-contracts, which
// is not published where this package is built; these are its 1.x shapes as this package
// enforces them at the thread boundary, and will become re-exports when it is.

/** A position in authored content: line from 1, column from 0. */
export interface ContentOffset {
  type: 'content-offset';
  line: number;
  column: number;
}
const contentOffsetSchema = v.strictObject({
  type: v.literal('content-offset'),
  line: v.pipe(v.number(), v.integer(), v.minValue(1)),
  column: v.pipe(v.number(), v.integer(), v.minValue(0)),
});

schemaAgrees<SameType<v.InferOutput<typeof contentOffsetSchema>, ContentOffset>>();
/** Schema of {@link ContentOffset}. */
export const ContentOffsetSchema: v.GenericSchema<ContentOffset> = contentOffsetSchema;

/** A position in the log: a coordinate and, optionally, the operation there. */
export interface LogCoordinate {
  type: 'log-coordinate';
  coordinate: string;
  op?: string;
}
const logCoordinateSchema = v.strictObject({
  type: v.literal('log-coordinate'),
  coordinate: v.string(),
  op: v.optional(v.string()),
});

schemaAgrees<SameType<v.InferOutput<typeof logCoordinateSchema>, LogCoordinate>>();
/** Schema of {@link LogCoordinate}. */
export const LogCoordinateSchema: v.GenericSchema<LogCoordinate> = logCoordinateSchema;

/**
 * A transient, nonterminal observation published through `emit` (1.x `Notice`): who noticed
 * (`source`, such as `search` or `executor:jq`), what kind of thing, how loud, and optionally
 * a message and a position. Never operation-failure truth. Further members are accepted as
 * long as each is plain JSON, because 1.x handed `emit` straight to the service and published
 * leaves rely on it (the search leaf's `phase`); they count against the notice budget like the
 * rest (see {@link measureNotice}).
 */
export interface Notice {
  /** Who noticed: `[a-z]+(:[a-z][a-z0-9-]*)?`, such as `search` or `executor:jq`. */
  source: string;
  kind: string;
  level: 'error' | 'warn' | 'info';
  message?: string | null;
  position?: ContentOffset | LogCoordinate | null;
  /** A further member a leaf adds (such as the search leaf's `phase`): plain JSON, or the notice is refused. */
  [extra: string]: unknown;
}
const NOTICE_MEMBERS = ['source', 'kind', 'level', 'message', 'position'] as const;
const noticeSchema = v.pipe(
  v.looseObject({
    source: v.pipe(v.string(), v.regex(/^[a-z]+(:[a-z][a-z0-9-]*)?$/, 'source must match [a-z]+(:[a-z][a-z0-9-]*)?')),
    kind: v.pipe(v.string(), v.nonEmpty('kind must not be empty')),
    level: v.picklist(['error', 'warn', 'info']),
    message: v.optional(v.nullable(v.string())),
    position: v.optional(v.nullable(v.union([contentOffsetSchema, logCoordinateSchema]))),
  }),
  v.check(
    (notice) => extraMembers(notice).every(([, value]) => isJsonValue(value)),
    (issue) =>
      `every further member must be plain JSON, and ${extraMembers(issue.input as object)
        .filter(([, value]) => !isJsonValue(value))
        .map(([key]) => JSON.stringify(key))
        .join(', ')} is not`,
  ),
);
schemaAgrees<MutuallyAssignable<v.InferOutput<typeof noticeSchema>, Notice>>();
/** Schema of {@link Notice}. */
export const NoticeSchema: v.GenericSchema<Notice> = noticeSchema;

/** The members of a notice beyond the five 1.x names, as [key, value] pairs. */
function extraMembers(notice: object): [string, unknown][] {
  return Object.entries(notice).filter(([key]) => !(NOTICE_MEMBERS as readonly string[]).includes(key));
}

/**
 * One client interaction an executor awaits through `interact` (§client-interaction-wire):
 * the tool it concerns, its arguments, an optional message for the human, and the JSON
 * Schema the answer's payload follows.
 */
export interface ClientInteractionRequest {
  toolName: string;
  arguments: { [key: string]: JsonValue };
  message?: string;
  /** The JSON Schema the answer's payload follows. */
  responseSchema: { [key: string]: JsonValue };
}
const clientInteractionRequestSchema = v.strictObject({
  toolName: v.pipe(v.string(), v.nonEmpty('toolName must not be empty')),
  arguments: JsonObjectSchema,
  message: v.optional(v.pipe(v.string(), v.nonEmpty('message must not be empty'))),
  responseSchema: JsonObjectSchema,
});
/** One client interaction an executor awaits through `interact`. */
schemaAgrees<SameType<v.InferOutput<typeof clientInteractionRequestSchema>, ClientInteractionRequest>>();
/** Schema of {@link ClientInteractionRequest}. */
export const ClientInteractionRequestSchema: v.GenericSchema<ClientInteractionRequest> = clientInteractionRequestSchema;

/** How the client answered: `resolved` with an optional payload, or `cancelled`. */
export type ClientInteractionResolution = { status: 'resolved'; payload?: JsonValue } | { status: 'cancelled' };
const clientInteractionResolutionSchema = v.variant('status', [
  v.strictObject({ status: v.literal('resolved'), payload: v.optional(JsonValueSchema) }),
  v.strictObject({ status: v.literal('cancelled') }),
]);
schemaAgrees<SameType<v.InferOutput<typeof clientInteractionResolutionSchema>, ClientInteractionResolution>>();
/** Schema of {@link ClientInteractionResolution}. */
export const ClientInteractionResolutionSchema: v.GenericSchema<ClientInteractionResolution> =
  clientInteractionResolutionSchema;

/**
 * The bytes a notice counts against a run's notice budget: its `source`, `kind` and `message`,
 * its `position` as JSON, and every further member's key and value as JSON (UTF-8) — every
 * member a leaf chooses the length of. Both sides of the thread count the same way. Never
 * throws: a value that cannot be measured counts as 0 here and is refused by the host's
 * validation.
 */
export function measureNotice(notice: unknown): number {
  try {
    const { source, kind, message, position } = notice as Record<string, unknown>;
    const text = (value: unknown) => (typeof value === 'string' ? Buffer.byteLength(value, 'utf8') : 0);
    const json = (value: unknown) => (value === undefined || value === null ? 0 : text(JSON.stringify(value)));
    let bytes = text(source) + text(kind) + text(message) + json(position);
    for (const [key, value] of extraMembers(notice as object)) bytes += text(key) + json(value);
    return bytes;
  } catch {
    return 0;
  }
}

import * as v from 'valibot';
import { schemaAgrees, type SameType } from '../contracts/same-type.js';
import type { TierTagStats } from '../model/observe/host-stats.js';
import { RETIRE_REASONS, type ObserveEvents } from '../model/observe/observe-events.js';

// The part of the engine's wire that observing adds (engine-protocol.ts lists these frames with
// the others): the service tells the engine which of its events it listens to (`observe`) and
// asks for its thread tier's stats (`stats`); the engine answers, and forwards those events.
// Hostile input like every engine frame: checked here, and against the engine's own tags by
// engine-observe.ts, whose refusal kills the engine as corrupt.

/** The engine's events the service republishes: what its thread tier sees and the front door cannot. */
export const FORWARDED_EVENTS = [
  'plurnk-execs:thread:retired',
  'plurnk-execs:tag:degraded',
  'plurnk-execs:tag:restored',
] as const;

/** One of {@link FORWARDED_EVENTS}. */
export type ForwardedEvent = (typeof FORWARDED_EVENTS)[number];

const Count = v.pipe(v.number(), v.safeInteger(), v.minValue(0));
const Ms = v.pipe(v.number(), v.finite(), v.minValue(0));
/** Text a leaf may have written: bounded here, cut again before it is republished. */
const Text = v.pipe(v.string(), v.maxLength(64 * 1024));
const Tag = v.pipe(v.string(), v.maxLength(256));

const ThreadCountsSchema = v.strictObject({
  starting: Count,
  idle: Count,
  busy: Count,
  retiring: Count,
  spares: Count,
});

const BreakerSchema = v.strictObject({
  state: v.picklist(['closed', 'open', 'probation']),
  crashes: Count,
  retryInMs: v.nullable(Ms),
  retryAt: v.nullable(v.pipe(v.string(), v.maxLength(64))),
  lastCrash: v.nullable(Text),
});

/** One tag's thread-tier facts as the engine reports them. */
export const TierTagStatsSchema = v.strictObject({
  threads: v.nullable(ThreadCountsSchema),
  waiting: Count,
  crashes: Count,
  breaker: BreakerSchema,
});

/** The engine's answer to `stats`: its tags' thread-tier facts. */
export const StatsFrameSchema = v.strictObject({
  t: v.literal('stats'),
  id: Count,
  tags: v.record(Tag, TierTagStatsSchema),
});

/** One event of the engine's thread tier, forwarded because the service listens to it. */
export const EventFrameSchema = v.strictObject({
  t: v.literal('event'),
  event: v.variant('name', [
    v.strictObject({
      name: v.literal('plurnk-execs:thread:retired'),
      payload: v.strictObject({
        tag: Tag,
        threadId: Count,
        why: v.picklist(RETIRE_REASONS),
        detail: v.nullable(Text),
        runs: Count,
      }),
    }),
    v.strictObject({
      name: v.literal('plurnk-execs:tag:degraded'),
      payload: v.strictObject({ tag: Tag, crashes: Count, reason: Text, retryInMs: Ms }),
    }),
    v.strictObject({ name: v.literal('plurnk-execs:tag:restored'), payload: v.strictObject({ tag: Tag }) }),
  ]),
});

/** A forwarded event, validated. */
export type EventFrame = v.InferOutput<typeof EventFrameSchema>;
/** A stats answer, validated. */
export type StatsFrame = v.InferOutput<typeof StatsFrameSchema>;

/** The frames the service sends for observing. */
export type ObserveServiceMessage = { t: 'observe'; events: ForwardedEvent[] } | { t: 'stats'; id: number };

// The wire's facts are the thread tier's, field for field: the compiler holds them together.
schemaAgrees<SameType<v.InferOutput<typeof TierTagStatsSchema>, TierTagStats>>();
type Forwarded = v.InferOutput<typeof EventFrameSchema>['event'];
schemaAgrees<
  SameType<{ [N in ForwardedEvent]: Extract<Forwarded, { name: N }>['payload'] }, Pick<ObserveEvents, ForwardedEvent>>
>();

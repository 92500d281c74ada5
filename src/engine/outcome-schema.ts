import * as v from 'valibot';
import { ChannelStateSchema } from '../contracts/channels.js';
import { EffectSchema } from '../contracts/effect.js';
import { NoticeSchema } from '../contracts/notice.js';
import { ExecResultSchema } from '../contracts/result.js';
import { VIOLATION_KINDS } from '../contracts/violation.js';
import { RUN_END_REASONS } from '../model/fault-kinds.js';
import { OUTCOME_CLASSES } from '../model/outcome-class.js';

const Count = v.pipe(v.number(), v.integer(), v.minValue(0));

const ChannelOutputSchema = v.strictObject({
  mimetype: v.string(),
  state: ChannelStateSchema,
  text: v.string(),
  parts: v.array(v.strictObject({ mimetype: v.string(), text: v.string() })),
});

/**
 * Schema of an `ExecOutcome` as the engine sends it: the service reads nothing the engine
 * says until it has passed this (a leaf can forge frames on the engine's channel).
 */
export const ExecOutcomeSchema = v.strictObject({
  outcome: v.picklist(OUTCOME_CLASSES),
  result: ExecResultSchema,
  effect: v.nullable(EffectSchema),
  address: v.nullable(v.string()),
  channels: v.record(v.string(), ChannelOutputSchema),
  notices: v.array(NoticeSchema),
  violations: v.array(v.strictObject({ kind: v.picklist(VIOLATION_KINDS), detail: v.string() })),
  containment: v.optional(
    v.strictObject({
      console: v.nullable(v.strictObject({ bytes: Count, text: v.string() })),
      reapedProcesses: Count,
      forcedEnd: v.nullable(v.strictObject({ reason: v.picklist(RUN_END_REASONS), terminated: v.boolean() })),
      usage: v.optional(v.strictObject({ processesStarted: Count, peakThreadBytes: v.nullable(Count) })),
    }),
  ),
});

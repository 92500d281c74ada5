import * as v from 'valibot';

/**
 * Admission fact of one invocation (§executor-effect): `host` may mutate host state, `read`
 * observes without mutating, `pure` has no externally observable side effect.
 */
export const EffectSchema = v.picklist(['pure', 'read', 'host']);
/** Admission fact of one invocation (§executor-effect). */
export type Effect = v.InferOutput<typeof EffectSchema>;

/** Availability verdict of one runtime tag (§executor-probe). `detail` is terse and actionable. */
export const RuntimeAvailabilitySchema = v.strictObject({
  available: v.boolean(),
  detail: v.optional(v.string()),
});
/** Availability verdict of one runtime tag (§executor-probe). */
export type RuntimeAvailability = v.InferOutput<typeof RuntimeAvailabilitySchema>;

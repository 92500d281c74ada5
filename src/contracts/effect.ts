import * as v from 'valibot';

/**
 * Admission fact of one invocation (§executor-effect): `host` may mutate host state, `read`
 * observes without mutating, `pure` has no externally observable side effect.
 */
export const EffectSchema = v.picklist(['pure', 'read', 'host']);
/** Admission fact of one invocation (§executor-effect). */
export type Effect = v.InferOutput<typeof EffectSchema>;

/**
 * Availability verdict of one runtime tag (§executor-probe). `detail` is terse and actionable.
 * Other fields are accepted and dropped, as 1.x's consumer read only these two.
 */
export const RuntimeAvailabilitySchema = v.object({
  available: v.boolean(),
  detail: v.optional(v.string()),
});
/** Availability verdict of one runtime tag (§executor-probe). */
export type RuntimeAvailability = v.InferOutput<typeof RuntimeAvailabilitySchema>;

import * as v from 'valibot';
import { schemaAgrees, type SameType } from './same-type.js';

/**
 * Admission fact of one invocation (§executor-effect): `host` may mutate host state, `read`
 * observes without mutating, `pure` has no externally observable side effect.
 */
export type Effect = 'pure' | 'read' | 'host';
const effectSchema = v.picklist(['pure', 'read', 'host']);
schemaAgrees<SameType<v.InferOutput<typeof effectSchema>, Effect>>();
/** Schema of {@link Effect}. */
export const EffectSchema: v.GenericSchema<Effect> = effectSchema;

/**
 * Availability verdict of one runtime tag (§executor-probe). `detail` is terse and actionable.
 * Other fields are accepted and dropped, as 1.x's consumer read only these two.
 */
export interface RuntimeAvailability {
  available: boolean;
  detail?: string;
}
const runtimeAvailabilitySchema = v.object({
  available: v.boolean(),
  detail: v.optional(v.string()),
});
schemaAgrees<SameType<v.InferOutput<typeof runtimeAvailabilitySchema>, RuntimeAvailability>>();
/** Schema of {@link RuntimeAvailability}. */
export const RuntimeAvailabilitySchema: v.GenericSchema<RuntimeAvailability> = runtimeAvailabilitySchema;

import * as v from 'valibot';
import { schemaAgrees, type SameType } from './same-type.js';

/** Lifecycle of one declared output channel: `active` moves once to `closed` or `errored`. */
export type ChannelState = 'active' | 'closed' | 'errored';
const channelStateSchema = v.picklist(['active', 'closed', 'errored']);
schemaAgrees<SameType<v.InferOutput<typeof channelStateSchema>, ChannelState>>();
/** Schema of {@link ChannelState}. */
export const ChannelStateSchema: v.GenericSchema<ChannelState> = channelStateSchema;

/** One channel an executor declares it may write (§executor-channels). */
export interface ChannelDecl {
  mimetype: string;
  defaultState?: ChannelState;
}
const channelDeclSchema = v.strictObject({
  mimetype: v.pipe(v.string(), v.nonEmpty('mimetype must not be empty')),
  defaultState: v.optional(ChannelStateSchema),
});
schemaAgrees<SameType<v.InferOutput<typeof channelDeclSchema>, ChannelDecl>>();
/** Schema of {@link ChannelDecl}. */
export const ChannelDeclSchema: v.GenericSchema<ChannelDecl> = channelDeclSchema;

/** The whole channel declaration of an executor: at least one channel, names non-empty. */
export const ChannelDeclsSchema: v.GenericSchema<Record<string, ChannelDecl>> = v.pipe(
  v.record(v.pipe(v.string(), v.regex(/^[A-Za-z0-9_.-]+$/, 'channel names are [A-Za-z0-9_.-]+')), ChannelDeclSchema),
  v.check((decls) => Object.keys(decls).length > 0, 'an executor declares at least one channel'),
);

/** True for the only legal transitions: `active` ⇒ `closed` or `errored`. */
export function isLegalTransition(from: ChannelState, to: ChannelState): boolean {
  return from === 'active' && (to === 'closed' || to === 'errored');
}

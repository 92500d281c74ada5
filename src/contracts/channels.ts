import * as v from 'valibot';

/** Lifecycle of one declared output channel: `active` moves once to `closed` or `errored`. */
export const ChannelStateSchema = v.picklist(['active', 'closed', 'errored']);
/** Lifecycle of one declared output channel. */
export type ChannelState = v.InferOutput<typeof ChannelStateSchema>;

/** One channel an executor declares it may write (§executor-channels). */
export const ChannelDeclSchema = v.strictObject({
  mimetype: v.pipe(v.string(), v.nonEmpty('mimetype must not be empty')),
  defaultState: v.optional(ChannelStateSchema),
});
/** One channel an executor declares it may write (§executor-channels). */
export type ChannelDecl = v.InferOutput<typeof ChannelDeclSchema>;

/** The whole channel declaration of an executor: at least one channel, names non-empty. */
export const ChannelDeclsSchema = v.pipe(
  v.record(v.pipe(v.string(), v.regex(/^[A-Za-z0-9_.-]+$/, 'channel names are [A-Za-z0-9_.-]+')), ChannelDeclSchema),
  v.check((decls) => Object.keys(decls).length > 0, 'an executor declares at least one channel'),
);

/** True for the only legal transitions: `active` ⇒ `closed` or `errored`. */
export function isLegalTransition(from: ChannelState, to: ChannelState): boolean {
  return from === 'active' && (to === 'closed' || to === 'errored');
}

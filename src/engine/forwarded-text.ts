import type { ChannelOutput, ExecOutcome } from '../model/host-types.js';
import type { SeenRun } from './crashed-run.js';

/** Per channel, the length of each part's text: what the service needs to cut the text it saw back into parts. */
export type PartLengths = Record<string, number[]>;

/**
 * The engine forwards every accepted write to the service as it happens (so a crash keeps the
 * output), and the outcome used to carry all of it again — twice, as each channel's `text` and
 * its `parts`: a run writing 16 MiB crossed the pipe as 48. The outcome goes without the text;
 * each part keeps its mimetype and says its length.
 */
export function stripForwardedText(outcome: ExecOutcome): { outcome: ExecOutcome; lengths: PartLengths } {
  const channels: Record<string, ChannelOutput> = {};
  const lengths: PartLengths = {};
  for (const [name, channel] of Object.entries(outcome.channels)) {
    lengths[name] = channel.parts.map((part) => part.text.length);
    channels[name] = { ...channel, text: '', parts: channel.parts.map((part) => ({ ...part, text: '' })) };
  }
  return { outcome: { ...outcome, channels }, lengths };
}

/**
 * Puts back into `outcome` the text the service saw forwarded for each channel, cut into the
 * engine's parts. Undefined when the two disagree (a part length that does not add up, a
 * channel with text it never forwarded, a channel it forwarded calls for and the outcome leaves
 * out): the engine's frames cannot be trusted then.
 */
export function restoreForwardedText(
  outcome: ExecOutcome,
  lengths: PartLengths,
  seen: SeenRun,
): ExecOutcome | undefined {
  // Only declared channels are forwarded, and an outcome holds every declared channel.
  if (Object.keys(seen.channels).some((name) => !Object.hasOwn(outcome.channels, name))) return undefined;
  const channels: Record<string, ChannelOutput> = {};
  const forwarded = seen.channels;
  for (const [name, channel] of Object.entries(outcome.channels)) {
    const text = Object.hasOwn(forwarded, name) ? forwarded[name]!.text : '';
    const cuts = Object.hasOwn(lengths, name) ? lengths[name]! : [];
    if (cuts.length !== channel.parts.length) return undefined;
    let at = 0;
    const parts = channel.parts.map((part, i) => {
      const piece = text.slice(at, at + cuts[i]!);
      at += cuts[i]!;
      return { ...part, text: piece };
    });
    if (at !== text.length || parts.some((part, i) => part.text.length !== cuts[i])) return undefined;
    channels[name] = { ...channel, text, parts };
  }
  return { ...outcome, channels };
}

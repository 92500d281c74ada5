import { describe, expect, it } from 'vitest';
import { SeenRun } from '../../../src/engine/crashed-run.js';
import { restoreForwardedText, stripForwardedText } from '../../../src/engine/forwarded-text.js';
import type { ExecOutcome } from '../../../src/model/host-types.js';

/** An outcome whose `out` channel was written as two parts (a per-write mimetype started the second). */
function outcomeOf(): ExecOutcome {
  return {
    outcome: 'ok',
    result: { status: 200 },
    effect: 'pure',
    address: null,
    channels: {
      out: {
        mimetype: 'text/markdown',
        state: 'closed',
        text: 'plain, then *marked*',
        parts: [
          { mimetype: 'text/plain', text: 'plain, then ' },
          { mimetype: 'text/markdown', text: '*marked*' },
        ],
      },
      empty: { mimetype: 'text/plain', state: 'closed', text: '', parts: [] },
    },
    notices: [],
    violations: [],
  };
}

/** What the service saw forwarded for that run, write by write. */
function seenOf(...writes: [string, string, string?][]): SeenRun {
  const seen = new SeenRun();
  for (const [channel, chunk, mimetype] of writes) seen.apply(['write', channel, chunk, mimetype]);
  return seen;
}

describe('the outcome of a process-tier run', () => {
  it('crosses the pipe without the text its writes already carried', () => {
    const { outcome, lengths } = stripForwardedText(outcomeOf());
    expect(outcome.channels.out!.text).toBe('');
    expect(outcome.channels.out!.parts.map((part) => part.text)).toEqual(['', '']);
    expect(lengths).toEqual({ out: [12, 8], empty: [] });
  });

  it('gets back exactly the text and parts the engine had, from what the service saw forwarded', () => {
    const { outcome, lengths } = stripForwardedText(outcomeOf());
    const seen = seenOf(['out', 'plain, '], ['out', 'then '], ['out', '*marked*', 'text/markdown']);
    expect(restoreForwardedText(outcome, lengths, seen)).toEqual(outcomeOf());
  });

  it('refuses an outcome whose parts do not add up to what was forwarded', () => {
    const { outcome, lengths } = stripForwardedText(outcomeOf());
    expect(restoreForwardedText(outcome, lengths, seenOf(['out', 'plain, then *marked* and more']))).toBeUndefined();
    expect(
      restoreForwardedText(outcome, { ...lengths, out: [12] }, seenOf(['out', 'plain, then *marked*'])),
    ).toBeUndefined();
    // Text the engine claims but never forwarded.
    expect(restoreForwardedText(outcome, lengths, seenOf())).toBeUndefined();
    // A channel it forwarded text on, left out of the outcome (a forged outcome with no channels).
    const bare = { ...outcome, channels: {} };
    expect(restoreForwardedText(bare, {}, seenOf(['out', 'plain, then *marked*']))).toBeUndefined();
  });
});

import { describe, expect, it } from 'vitest';
import { CallLedger } from '../../../src/engine/call-ledger.js';

/** A ledger with frames 0…n-1 sent at time 0, each a run of `sh`. */
function ledgerWith(sent: number, ackMs = 1000): CallLedger {
  const ledger = new CallLedger(ackMs);
  for (let id = 0; id < sent; id += 1) ledger.sent(id, `run ${id} (sh)`, 0);
  return ledger;
}

describe('what an engine owes the service for the calls it was sent', () => {
  it('takes acknowledgements in the order the frames were sent, in one batch or several', () => {
    const ledger = ledgerWith(4);
    expect(ledger.acked([0, 1])).toBeUndefined();
    expect(ledger.acked([2])).toBeUndefined();
    expect(ledger.acked([3])).toBeUndefined();
    expect(ledger.overdue(60_000)).toBeUndefined();
  });

  it('names the frame another reader took: the engine acknowledged one sent after it', () => {
    expect(ledgerWith(3).acked([0, 2])).toBe(
      'frame 1 (run 1 (sh)) never reached the engine: it acknowledged frame 2, sent after it (another reader took it off the channel)',
    );
  });

  it.each([
    ['never sent', [7]],
    ['acknowledged twice', [0, 0]],
  ])('refuses an acknowledgement of a frame %s', (_case, ids) => {
    expect(ledgerWith(2).acked(ids)).toMatch(/^an acknowledgement of frame [07], which awaits none/);
  });

  it('finds a frame not acknowledged within the bound, on the clock it is given', () => {
    const ledger = ledgerWith(2);
    ledger.acked([0]);
    expect(ledger.overdue(999)).toBeUndefined();
    expect(ledger.overdue(1000)).toBe(
      "frame 1 (run 1 (sh)) was not acknowledged within 1000ms (limits.unresponsiveMs): it never reached the engine's main thread",
    );
  });

  it('holds an acknowledged call to its deadline until it is answered', () => {
    const ledger = new CallLedger(1000);
    ledger.sent(5, 'effect 5 (sh)', 100, 2000);
    ledger.sent(6, 'run 6 (jq)', 100);
    expect(ledger.acked([5, 6])).toBeUndefined();
    expect(ledger.overdue(2099)).toBeUndefined();
    expect(ledger.overdue(2100)).toMatch(/^frame 5 \(effect 5 \(sh\)\) was not answered by its deadline/);
    ledger.answered(5);
    // A run without a deadline may run as long as its leaf does.
    expect(ledger.overdue(1_000_000)).toBeUndefined();
  });

  it('keeps its order across many frames acknowledged one by one', () => {
    const ledger = ledgerWith(500);
    for (let id = 0; id < 499; id += 1) expect(ledger.acked([id])).toBeUndefined();
    expect(ledger.acked([499])).toBeUndefined();
    expect(ledger.acked([499])).toMatch(/awaits none/);
  });
});

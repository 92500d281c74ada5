import { setTimeout as sleep } from 'node:timers/promises';
import { describe, expect, it } from 'vitest';
import { awaitNextTurn, currentTurn } from '../../../src/runtime/loop-turn.js';

describe("the loop's turn clock", () => {
  it('does not tick for readers alone: turns in which nobody waits schedule nothing', async () => {
    const before = currentTurn();
    for (let i = 0; i < 5; i++) {
      currentTurn();
      await sleep(2);
    }
    expect(currentTurn()).toBe(before);
  });

  it('ticks once at the end of a turn in which ports wait, resuming them in the order they came', async () => {
    const before = currentTurn();
    const order: string[] = [];
    const seen: number[] = [];
    const resumed = new Promise<void>((resolve) => {
      awaitNextTurn(() => (order.push('first'), seen.push(currentTurn())));
      awaitNextTurn(() => (order.push('second'), seen.push(currentTurn()), resolve()));
    });
    // Not in this turn: the tick runs in the loop's check phase, after the current turn's work.
    await Promise.resolve();
    expect(order).toEqual([]);
    await resumed;
    expect(order).toEqual(['first', 'second']);
    expect(seen).toEqual([before + 1, before + 1]);
  });

  it('resumes every waiter even when one throws', async () => {
    let after = false;
    await new Promise<void>((resolve) => {
      awaitNextTurn(() => {
        throw new Error('a waiter that throws');
      });
      awaitNextTurn(() => {
        after = true;
        resolve();
      });
    });
    expect(after).toBe(true);
  });
});

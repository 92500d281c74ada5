import { getEventListeners } from 'node:events';
import { describe, expect, it } from 'vitest';
import { QueueAbortedError, QueueTimeoutError, StartGate } from '../../../../src/thread-host/threads/start-gate.js';

const settled = async (promise: Promise<unknown>) => {
  let done = false;
  void promise.then(
    () => (done = true),
    () => (done = true),
  );
  await new Promise((resolve) => setImmediate(resolve));
  return done;
};

// The admission queue in front of thread starts: limits, order, and the ways a wait ends.
describe('StartGate', () => {
  it('admits at most threadStarts at once host-wide and threadStartsPerTag of one tag, the rest in arrival order', async () => {
    const gate = new StartGate({ threadStarts: 2, threadStartsPerTag: 1 });
    const order: string[] = [];
    const enter = (tag: string, name: string) =>
      gate.enter(tag).then((release) => {
        order.push(name);
        return release;
      });
    const a1 = enter('a', 'a1');
    const a2 = enter('a', 'a2');
    const b1 = enter('b', 'b1');
    const c1 = enter('c', 'c1');
    expect(await settled(a2)).toBe(false);
    expect(order).toEqual(['a1', 'b1']);
    expect(gate.snapshot()).toEqual({ starting: 2, waiting: 2 });
    (await b1)();
    // b's slot freed host room: a2 is still held by a's own limit, so c1 (later) goes first.
    expect(await settled(c1)).toBe(true);
    expect(order).toEqual(['a1', 'b1', 'c1']);
    (await a1)();
    expect(await settled(a2)).toBe(true);
    expect(order).toEqual(['a1', 'b1', 'c1', 'a2']);
    (await c1)();
    (await a2)();
    expect(gate.snapshot()).toEqual({ starting: 0, waiting: 0 });
  });

  it('gives a slot back once however often its release is called', async () => {
    const gate = new StartGate({ threadStarts: 1, threadStartsPerTag: 1 });
    const release = await gate.enter('a');
    release();
    release();
    expect(gate.snapshot().starting).toBe(0);
    expect(gate.tryEnter('a')).toBeDefined();
    expect(gate.tryEnter('a')).toBeUndefined();
  });

  it("lets a spare take any slot free host-wide, past its tag's share, and never one a waiting task was given", async () => {
    const gate = new StartGate({ threadStarts: 3, threadStartsPerTag: 1 });
    const first = gate.tryEnter('a');
    expect(first).toBeDefined();
    expect(gate.tryEnter('a')).toBeUndefined();
    expect(gate.tryEnter('a', true)).toBeDefined();
    const waiting = gate.enter('b');
    // b got the last slot: nothing is left for a spare.
    await waiting;
    expect(gate.tryEnter('a', true)).toBeUndefined();
    expect(gate.snapshot()).toEqual({ starting: 3, waiting: 0 });
  });

  it('fails a wait past its bound with QueueTimeoutError, leaving the queue', async () => {
    const gate = new StartGate({ threadStarts: 1, threadStartsPerTag: 1 });
    await gate.enter('a');
    await expect(gate.enter('a', { timeoutMs: 20 })).rejects.toBeInstanceOf(QueueTimeoutError);
    expect(gate.snapshot()).toEqual({ starting: 1, waiting: 0 });
  });

  it('admits a task whose signal aborted already when a slot is free: only a wait is cancelled', async () => {
    const gate = new StartGate({ threadStarts: 1, threadStartsPerTag: 1 });
    const release = await gate.enter('a', { signals: [AbortSignal.abort()] });
    expect(gate.snapshot()).toEqual({ starting: 1, waiting: 0 });
    release();
  });

  it('ends a wait with QueueAbortedError when a signal aborts, before or during the wait', async () => {
    const gate = new StartGate({ threadStarts: 1, threadStartsPerTag: 1 });
    const release = await gate.enter('a');
    const controller = new AbortController();
    const waiting = gate.enter('a', { signals: [undefined, controller.signal] });
    controller.abort();
    await expect(waiting).rejects.toBeInstanceOf(QueueAbortedError);
    await expect(gate.enter('a', { signals: [controller.signal] })).rejects.toBeInstanceOf(QueueAbortedError);
    release();
    // The aborted waiter took no slot.
    expect(gate.snapshot()).toEqual({ starting: 0, waiting: 0 });
  });

  it('keeps one listener on a signal every waiter shares, none once they are admitted', async () => {
    const gate = new StartGate({ threadStarts: 1, threadStartsPerTag: 1 });
    const shared = new AbortController();
    const first = await gate.enter('a');
    const waiters = Array.from({ length: 30 }, () => gate.enter('a', { signals: [shared.signal] }));
    expect(getEventListeners(shared.signal, 'abort')).toHaveLength(1);
    let release = first;
    for (const waiter of waiters) {
      release();
      release = await waiter;
    }
    release();
    expect(getEventListeners(shared.signal, 'abort')).toHaveLength(0);
  });
});

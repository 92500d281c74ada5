import { describe, expect, it } from 'vitest';
import { Handoffs } from '../../../../src/thread-host/threads/handoffs.js';
import { QueueTimeoutError, StartGate } from '../../../../src/thread-host/threads/start-gate.js';
import type { WorkerHandle } from '../../../../src/thread-host/threads/worker-handle.js';

/** A stand-in thread: Handoffs only passes it along. */
const thread = (threadId: number) => ({ threadId }) as unknown as WorkerHandle;

/** A gate with one slot, held, and a task of tag `a` waiting behind it through `handoffs`. */
function queued(handoffs: Handoffs, wait: { timeoutMs?: number } = {}) {
  const gate = new StartGate({ threadStarts: 1, threadStartsPerTag: 1 });
  const held = gate.tryEnter('a')!;
  const admitted = handoffs.admit('run', (leave) => gate.enter('a', { ...wait, signals: [leave] }));
  return { gate, held, admitted };
}

describe('Handoffs', () => {
  it('hands a waiting task a thread that became free, and takes it out of the admission queue', async () => {
    const handoffs = new Handoffs();
    const { gate, held, admitted } = queued(handoffs);
    expect(gate.snapshot()).toEqual({ starting: 1, waiting: 1 });
    const waiter = handoffs.next()!;
    expect(waiter.purpose).toBe('run');
    waiter.take(thread(7));
    await expect(admitted).resolves.toEqual({ handle: thread(7) });
    expect(gate.snapshot()).toEqual({ starting: 1, waiting: 0 });
    // The slot freed later goes to no one.
    held();
    expect(gate.snapshot()).toEqual({ starting: 0, waiting: 0 });
  });

  it('gives a task its start slot when one frees first, and no thread after that', async () => {
    const handoffs = new Handoffs();
    const { held, admitted } = queued(handoffs);
    held();
    const got = await admitted;
    expect(got).toHaveProperty('slot');
    expect(handoffs.next()).toBeUndefined();
  });

  it('gives back a slot that came in the same turn as a handed-over thread', async () => {
    const handoffs = new Handoffs();
    const { gate, held, admitted } = queued(handoffs);
    // The slot is granted (its promise settles a microtask later), then a thread is handed over.
    held();
    handoffs.next()!.take(thread(3));
    await expect(admitted).resolves.toEqual({ handle: thread(3) });
    await new Promise((resolve) => setImmediate(resolve));
    expect(gate.snapshot()).toEqual({ starting: 0, waiting: 0 });
  });

  it('rejects as the queue does, and leaves no waiter behind', async () => {
    const handoffs = new Handoffs();
    const { admitted } = queued(handoffs, { timeoutMs: 20 });
    await expect(admitted).rejects.toBeInstanceOf(QueueTimeoutError);
    expect(handoffs.next()).toBeUndefined();
  });
});

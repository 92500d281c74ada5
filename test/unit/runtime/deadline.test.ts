import { EventEmitter } from 'node:events';
import { describe, expect, it } from 'vitest';
import { TimeoutError, withDeadline } from '../../../src/runtime/deadline.js';

describe('withDeadline', () => {
  it('settles like the work when it settles in time', async () => {
    await expect(withDeadline(Promise.resolve(7), 1000, 'late')).resolves.toBe(7);
    await expect(withDeadline(Promise.reject(new RangeError('no')), 1000, 'late')).rejects.toThrow(RangeError);
  });

  it('rejects with a TimeoutError carrying the message when the deadline passes first', async () => {
    const error = await withDeadline(new Promise(() => {}), 20, 'effect() did not return within 20ms').catch(
      (e: unknown) => e,
    );
    expect(error).toBeInstanceOf(TimeoutError);
    expect((error as Error).message).toBe('effect() did not return within 20ms');
  });

  it("rejects with the signal's reason when it aborts first, or was aborted already", async () => {
    const controller = new AbortController();
    const pending = withDeadline(new Promise(() => {}), 1000, 'late', controller.signal);
    controller.abort('closing');
    await expect(pending).rejects.toBe('closing');
    await expect(withDeadline(Promise.resolve(1), 1000, 'late', controller.signal)).rejects.toBe('closing');
  });

  it('leaves no abort listener behind once the work settled', async () => {
    const controller = new AbortController();
    await withDeadline(Promise.resolve(1), 1000, 'late', controller.signal);
    expect(EventEmitter.getEventListeners(controller.signal, 'abort')).toHaveLength(0);
  });
});

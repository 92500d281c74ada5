import { getEventListeners } from 'node:events';
import { describe, expect, it } from 'vitest';
import { abortSubscribers, onAbort } from '../../../src/runtime/abort-fanout.js';
import { withDeadline } from '../../../src/runtime/deadline.js';

// A signal shared by many runs (a service's, the host's closing) carries one listener, however many subscribe.
describe('onAbort', () => {
  it('keeps one listener for any number of subscribers, and removes it when the last leaves', () => {
    const controller = new AbortController();
    const leave = Array.from({ length: 50 }, () => onAbort(controller.signal, () => {}));
    expect(getEventListeners(controller.signal, 'abort')).toHaveLength(1);
    expect(abortSubscribers(controller.signal)).toBe(50);
    for (const each of leave) each();
    expect(getEventListeners(controller.signal, 'abort')).toHaveLength(0);
    expect(abortSubscribers(controller.signal)).toBe(0);
  });

  it('calls every subscriber once on abort, even when one throws, and no one who left', () => {
    const controller = new AbortController();
    const called: string[] = [];
    onAbort(controller.signal, () => called.push('a'));
    onAbort(controller.signal, () => {
      throw new Error('a subscriber failed');
    });
    const leave = onAbort(controller.signal, () => called.push('gone'));
    onAbort(controller.signal, () => called.push('b'));
    leave();
    controller.abort();
    controller.abort();
    expect(called).toEqual(['a', 'b']);
    expect(getEventListeners(controller.signal, 'abort')).toHaveLength(0);
  });

  it('subscribes afresh after every subscriber left, and a second leave changes nothing', () => {
    const controller = new AbortController();
    const leave = onAbort(controller.signal, () => {});
    leave();
    leave();
    const again = onAbort(controller.signal, () => {});
    expect(getEventListeners(controller.signal, 'abort')).toHaveLength(1);
    again();
    expect(getEventListeners(controller.signal, 'abort')).toHaveLength(0);
  });

  it('with keep, leaves its one listener on the signal between subscribers, and calls only those subscribed at the abort', () => {
    const controller = new AbortController();
    const called: string[] = [];
    for (const name of ['a', 'b', 'c']) onAbort(controller.signal, () => called.push(name), true)();
    expect(getEventListeners(controller.signal, 'abort')).toHaveLength(1);
    expect(abortSubscribers(controller.signal)).toBe(0);
    onAbort(controller.signal, () => called.push('d'), true);
    expect(getEventListeners(controller.signal, 'abort')).toHaveLength(1);
    controller.abort();
    expect(called).toEqual(['d']);
    expect(getEventListeners(controller.signal, 'abort')).toHaveLength(0);
  });
});

describe('withDeadline on a shared signal', () => {
  it('adds no listener per call: 100 calls in flight share one, and none is left after', async () => {
    const controller = new AbortController();
    const calls = Array.from({ length: 100 }, (_, i) =>
      withDeadline(Promise.resolve(i), 1000, 'late', controller.signal),
    );
    expect(getEventListeners(controller.signal, 'abort')).toHaveLength(1);
    expect(await Promise.all(calls)).toHaveLength(100);
    expect(getEventListeners(controller.signal, 'abort')).toHaveLength(0);
  });

  it('still rejects every call in flight with the reason when the shared signal aborts', async () => {
    const controller = new AbortController();
    const never = new Promise<never>(() => {});
    const calls = Array.from({ length: 3 }, () => withDeadline(never, 10_000, 'late', controller.signal));
    controller.abort(new Error('closing'));
    for (const call of calls) await expect(call).rejects.toThrow('closing');
  });
});

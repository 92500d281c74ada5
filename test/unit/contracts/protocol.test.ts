import { describe, expect, it } from 'vitest';
import { decodeAbortReason, encodeAbortReason, isWorkerControlMessage } from '../../../src/contracts/protocol.js';
import {
  describeError,
  deserializeError,
  serializeError,
  type SerializedError,
} from '../../../src/contracts/serialized-error.js';

/** What a message becomes after crossing a MessagePort. */
const cross = <T>(value: T): T => structuredClone(value);

describe('abort reasons across the thread', () => {
  it('keeps a plain reason as it is', () => {
    expect(decodeAbortReason(cross(encodeAbortReason({ signal: 'SIGUSR1' })))).toEqual({ signal: 'SIGUSR1' });
    expect(decodeAbortReason(cross(encodeAbortReason(undefined)))).toBeUndefined();
  });

  it('rebuilds a DOMException with its name and message', () => {
    const reason = decodeAbortReason(
      cross(encodeAbortReason(new AbortController().signal.reason ?? new DOMException('stop', 'AbortError'))),
    );
    expect(reason).toBeInstanceOf(DOMException);
    expect((reason as DOMException).name).toBe('AbortError');
  });

  it('rebuilds an Error subclass by name, code and cause, and survives an uncloneable value', () => {
    class Halt extends Error {
      code = 'E_HALT';
      override name = 'Halt';
    }
    const reason = decodeAbortReason(
      cross(encodeAbortReason(new Halt('halt', { cause: new Error('why') }))),
    ) as Error & { code: string };
    expect([reason.name, reason.message, reason.code, (reason.cause as Error).message]).toEqual([
      'Halt',
      'halt',
      'E_HALT',
      'why',
    ]);
    expect(decodeAbortReason(cross(encodeAbortReason(() => 1)))).toBeInstanceOf(Error);
  });
});

describe('serializeError', () => {
  it('keeps name, message, code and cause, and describes non-errors', () => {
    const error = Object.assign(new TypeError('bad', { cause: 'root' }), { code: 'E_BAD' });
    const serialized = serializeError(error);
    expect(serialized).toMatchObject({
      name: 'TypeError',
      message: 'bad',
      code: 'E_BAD',
      cause: { name: 'NonError', message: 'root' },
    });
    expect(describeError(serialized)).toBe('TypeError: bad');
    expect(deserializeError(serialized)).toMatchObject({ name: 'TypeError', message: 'bad', code: 'E_BAD' });
    expect(serializeError(Symbol('s'))).toEqual({ name: 'NonError', message: 'Symbol(s)' });
  });

  it('never throws for a hostile value, and cuts a cause cycle', () => {
    const hostile = new Proxy(
      {},
      {
        get: () => {
          throw new Error('trap');
        },
      },
    );
    expect(serializeError(hostile)).toEqual({ name: 'NonError', message: 'an unreadable value was thrown' });
    const cyclic: Error & { cause?: unknown } = new Error('loop');
    cyclic.cause = cyclic;
    let depth = 0;
    for (let link: SerializedError | undefined = serializeError(cyclic); link; link = link.cause) depth += 1;
    expect(depth).toBe(5);
  });
});

describe('isWorkerControlMessage', () => {
  it.each([
    [{ type: 'started' }, true],
    [{ type: 'process-group', pgid: 1234 }, true],
    [{ type: 'process-group', pgid: 1 }, false],
    [{ type: 'process-group', pgid: -5 }, false],
    // Replies travel apart (isTaskReplyMessage); the old barrier is no report.
    [{ type: 'reply', id: 3, reply: { ok: true, value: 1, threadId: 1 } }, false],
    [{ type: 'sync', id: 3 }, false],
    [{ type: 'heartbeat', memory: { heapUsed: 1, external: 2, arrayBuffers: 0 } }, true],
    [{ type: 'heartbeat', memory: { heapUsed: 1, external: -2, arrayBuffers: 0 } }, false],
    [{ type: 'heartbeat' }, false],
    [{ type: 'output-limit', limitBytes: 65536 }, true],
    [{ type: 'console', bytes: 12, text: 'hello' }, true],
    [{ type: 'console', bytes: 12 }, false],
    [{ type: 'violation', kind: 'mutated-args', message: 'run() tried to set args.body' }, true],
    [{ type: 'violation', kind: 'mutated-args', message: 7 }, false],
    // A thread reports only what a thread can see; the host's own kinds and unknown ones are refused.
    [{ type: 'violation', message: 'run() tried to set args.body' }, false],
    [{ type: 'violation', kind: 'undeclared-channel', message: 'x' }, false],
    [{ type: 'violation', kind: 'made-up', message: 'x' }, false],
    [{ type: 'fault', error: { name: 'Error', message: 'late' } }, true],
    [{ type: 'fault', error: 'late' }, false],
    [null, false],
    ['started', false],
  ])('judges %j as %s', (message, expected) => {
    expect(isWorkerControlMessage(message)).toBe(expected);
  });
});

import { AsyncLocalStorage } from 'node:async_hooks';
import { tracingChannel } from 'node:diagnostics_channel';
import { afterEach, describe, expect, it } from 'vitest';
import { traceAsync } from '../../../../src/host/observe/trace-async.js';

interface Context {
  name: string;
  result?: string;
  error?: string;
}

const tracing = tracingChannel<Context>('plurnk-execs:test:trace-async');

/** Subscribes to the five channels, recording each event with a copy of the context then. */
function record() {
  const seen: [string, Context][] = [];
  const at = (event: string) => (context: Context) => void seen.push([event, { ...context }]);
  const subscribers = {
    start: at('start'),
    end: at('end'),
    asyncStart: at('asyncStart'),
    asyncEnd: at('asyncEnd'),
    error: at('error'),
  };
  tracing.subscribe(subscribers);
  return { seen, stop: () => tracing.unsubscribe(subscribers) };
}

describe('traceAsync', () => {
  let stop = () => {};
  afterEach(() => stop());

  it('publishes start and end around the call, then asyncStart and asyncEnd with the plain result the host wrote', async () => {
    const recorder = record();
    stop = recorder.stop;
    const context: Context = { name: 'run' };
    const value = await traceAsync(
      tracing,
      context,
      async () => ({ big: 'the whole outcome' }),
      (resolved) => (context.result = `summary of ${resolved.big}`),
      () => {},
    );
    expect(value).toEqual({ big: 'the whole outcome' });
    expect(recorder.seen).toEqual([
      ['start', { name: 'run' }],
      ['end', { name: 'run' }],
      ['asyncStart', { name: 'run', result: 'summary of the whole outcome' }],
      ['asyncEnd', { name: 'run', result: 'summary of the whole outcome' }],
    ]);
  });

  it('publishes error, then asyncStart and asyncEnd, for a rejection, and rejects with it', async () => {
    const recorder = record();
    stop = recorder.stop;
    const context: Context = { name: 'run' };
    const failure = new Error('no');
    await expect(
      traceAsync(
        tracing,
        context,
        async () => Promise.reject(failure),
        () => {},
        (error) => (context.error = (error as Error).message),
      ),
    ).rejects.toBe(failure);
    expect(recorder.seen.map(([event]) => event)).toEqual(['start', 'end', 'error', 'asyncStart', 'asyncEnd']);
    expect(recorder.seen[2]![1]).toEqual({ name: 'run', error: 'no' });
  });

  it('publishes error and end for a call that throws before it returns a promise', () => {
    const recorder = record();
    stop = recorder.stop;
    const context: Context = { name: 'run' };
    expect(() =>
      traceAsync(
        tracing,
        context,
        () => {
          throw new Error('at once');
        },
        () => {},
        (error) => (context.error = (error as Error).message),
      ),
    ).toThrow('at once');
    expect(recorder.seen.map(([event]) => event)).toEqual(['start', 'error', 'end']);
  });

  it('runs the call in the store a subscriber bound to start, so an APM’s context follows it', async () => {
    const store = new AsyncLocalStorage<Context>();
    tracing.start.bindStore(store, (context) => ({ name: `span of ${context.name}` }));
    stop = () => tracing.start.unbindStore(store);
    let inside: string | undefined;
    await traceAsync(
      tracing,
      { name: 'run' },
      async () => {
        await new Promise((resolve) => setImmediate(resolve));
        inside = store.getStore()?.name;
      },
      () => {},
      () => {},
    );
    expect(inside).toBe('span of run');
    expect(store.getStore()).toBeUndefined();
  });
});

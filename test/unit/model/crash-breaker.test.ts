import { subscribe, unsubscribe } from 'node:diagnostics_channel';
import { describe, expect, it } from 'vitest';
import { CrashBreaker } from '../../../src/model/crash-breaker.js';
import { EVENT_TEXT_CHARS } from '../../../src/model/observe/observe-events.js';

/** A breaker on a clock the test moves by hand. */
function breakerAt(options = { crashes: 3, windowMs: 1000, cooldownMs: 500 }) {
  let now = 0;
  const breaker = new CrashBreaker(options, () => now);
  return { breaker, advance: (ms: number) => void (now += ms) };
}

describe('CrashBreaker', () => {
  it('opens on the third crash within the window, with the last reason and the time left', () => {
    const { breaker, advance } = breakerAt();
    breaker.record('sh', 'first');
    advance(100);
    breaker.record('sh', 'second');
    expect(breaker.degradation('sh')).toBeUndefined();
    advance(100);
    breaker.record('sh', 'third');
    expect(breaker.degradation('sh')).toEqual({ reason: 'third', crashes: 3, retryInMs: 500 });
    advance(200);
    expect(breaker.degradation('sh')?.retryInMs).toBe(300);
    expect(breaker.degradation('jq')).toBeUndefined();
  });

  it('forgets crashes older than the window', () => {
    const { breaker, advance } = breakerAt();
    breaker.record('sh', 'a');
    breaker.record('sh', 'b');
    advance(1000);
    breaker.record('sh', 'c');
    expect(breaker.degradation('sh')).toBeUndefined();
    breaker.record('sh', 'd');
    expect(breaker.degradation('sh')).toBeUndefined();
    breaker.record('sh', 'e');
    expect(breaker.degradation('sh')?.reason).toBe('e');
  });

  it('closes after the cool-down on probation: one more crash reopens it at once', () => {
    const { breaker, advance } = breakerAt();
    for (const reason of ['a', 'b', 'c']) breaker.record('sh', reason);
    advance(500);
    expect(breaker.degradation('sh')).toBeUndefined();
    breaker.record('sh', 'again');
    expect(breaker.degradation('sh')).toEqual({ reason: 'again', crashes: 1, retryInMs: 500 });
  });

  it('ends probation after a clean run: it takes the full count to open again', () => {
    const { breaker, advance } = breakerAt();
    for (const reason of ['a', 'b', 'c']) breaker.record('sh', reason);
    advance(500);
    expect(breaker.degradation('sh')).toBeUndefined();
    breaker.succeeded('sh');
    breaker.record('sh', 'd');
    breaker.record('sh', 'e');
    expect(breaker.degradation('sh')).toBeUndefined();
    breaker.record('sh', 'f');
    expect(breaker.degradation('sh')?.crashes).toBe(3);
  });

  it('ignores a clean run outside probation: crashes stay counted', () => {
    const { breaker } = breakerAt();
    breaker.record('sh', 'a');
    breaker.record('sh', 'b');
    breaker.succeeded('sh');
    breaker.record('sh', 'c');
    expect(breaker.degradation('sh')?.crashes).toBe(3);
  });
});

describe('CrashBreaker, observed', () => {
  /** What the breaker published on the tag channels while `act` ran. */
  function published(act: () => void): { channel: string; payload: unknown }[] {
    const seen: { channel: string; payload: unknown }[] = [];
    const names = ['plurnk-execs:tag:degraded', 'plurnk-execs:tag:restored'];
    const handlers = names.map((channel) => {
      const handler = (payload: unknown) => void seen.push({ channel, payload });
      subscribe(channel, handler);
      return () => unsubscribe(channel, handler);
    });
    try {
      act();
    } finally {
      for (const stop of handlers) stop();
    }
    return seen;
  }

  it('publishes a tag degraded when it opens, and restored when a clean run ends its probation', () => {
    const { breaker, advance } = breakerAt();
    const opened = published(() => {
      breaker.record('sh', 'a');
      breaker.record('sh', 'b');
      breaker.record('sh', 'c');
    });
    expect(opened).toEqual([
      { channel: 'plurnk-execs:tag:degraded', payload: { tag: 'sh', crashes: 3, reason: 'c', retryInMs: 500 } },
    ]);
    advance(500);
    expect(published(() => breaker.degradation('sh'))).toEqual([]);
    expect(published(() => breaker.succeeded('sh'))).toEqual([
      { channel: 'plurnk-execs:tag:restored', payload: { tag: 'sh' } },
    ]);
    // A clean run outside probation restores nothing: nothing was degraded.
    expect(published(() => breaker.succeeded('sh'))).toEqual([]);
  });

  it('cuts the crash a degraded event carries to the event budget', () => {
    const { breaker } = breakerAt({ crashes: 1, windowMs: 1000, cooldownMs: 500 });
    const [event] = published(() => breaker.record('sh', 'x'.repeat(5000)));
    expect((event!.payload as { reason: string }).reason).toHaveLength(EVENT_TEXT_CHARS);
  });

  it('tells its state as host.stats() reports it: every crash, the window, when it lets runs through again', () => {
    const { breaker, advance } = breakerAt();
    expect(breaker.inspect('sh')).toEqual({
      total: 0,
      breaker: { state: 'closed', crashes: 0, retryInMs: null, retryAt: null, lastCrash: null },
    });
    breaker.record('sh', 'a');
    breaker.record('sh', 'b');
    expect(breaker.inspect('sh')).toEqual({
      total: 2,
      breaker: { state: 'closed', crashes: 2, retryInMs: null, retryAt: null, lastCrash: 'b' },
    });
    breaker.record('sh', 'c');
    advance(100);
    const open = breaker.inspect('sh');
    expect(open).toEqual({
      total: 3,
      breaker: { state: 'open', crashes: 3, retryInMs: 400, retryAt: expect.any(String), lastCrash: 'c' },
    });
    expect(Date.parse(open.breaker.retryAt!)).toBeGreaterThan(Date.now());
    advance(400);
    expect(breaker.inspect('sh').breaker).toMatchObject({ state: 'probation', crashes: 0, retryInMs: null });
    breaker.succeeded('sh');
    expect(breaker.inspect('sh')).toEqual({
      total: 3,
      breaker: { state: 'closed', crashes: 0, retryInMs: null, retryAt: null, lastCrash: 'c' },
    });
  });
});

import { describe, expect, it } from 'vitest';
import { CrashBreaker } from '../../../src/model/crash-breaker.js';

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

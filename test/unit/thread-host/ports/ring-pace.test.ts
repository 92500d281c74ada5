import { describe, expect, it } from 'vitest';
import { RingPace } from '../../../../src/thread-host/ports/ring-pace.js';

describe('a run ring pace (token bucket)', () => {
  it('allows its burst at once, then its rate a millisecond, never more than the burst', () => {
    let now = 100;
    const pace = new RingPace(10, 50, () => now);
    expect(pace.allowance()).toBe(50);
    pace.spend(50);
    expect(pace.allowance()).toBe(0);
    expect(pace.wait(20)).toBe(2);
    now += 1.5;
    expect(pace.allowance()).toBe(15);
    expect(pace.wait(20)).toBe(1);
    now += 1000;
    expect(pace.allowance()).toBe(50);
    expect(pace.wait(20)).toBe(0);
    // A share larger than the burst waits only for the burst.
    expect(pace.wait(80)).toBe(0);
  });
});

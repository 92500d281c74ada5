import { afterEach, describe, expect, it, vi } from 'vitest';
import { BurstQuiet, QUIET_MAX_MS } from '../../../../src/thread-host/threads/burst-quiet.js';

/** Lets `turns` turns of the loop pass. */
async function turns(count: number): Promise<void> {
  for (let i = 0; i < count; i++) await new Promise((resolve) => setImmediate(resolve));
}

describe('BurstQuiet', () => {
  afterEach(() => vi.useRealTimers());

  it('lets a release’s work go a turn later when no other run of the tag is in flight', async () => {
    const quiet = new BurstQuiet(() => 0);
    let went = false;
    void quiet.wait().then(() => (went = true));
    expect(went).toBe(false);
    await turns(2);
    expect(went).toBe(true);
  });

  it('holds it while runs are in flight, and lets everything held go once the last of them ended', async () => {
    let inFlight = 2;
    const quiet = new BurstQuiet(() => inFlight);
    const went: number[] = [];
    void quiet.wait().then(() => went.push(1));
    void quiet.wait().then(() => went.push(2));
    inFlight = 1;
    quiet.runEnded();
    await turns(3);
    expect(went).toEqual([]);
    inFlight = 0;
    quiet.runEnded();
    await turns(2);
    expect(went).toEqual([1, 2]);
  });

  it(`lets it go after ${QUIET_MAX_MS} ms at most under steady load, or at once when flushed`, async () => {
    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout'] });
    const quiet = new BurstQuiet(() => 5);
    let bounded = false;
    void quiet.wait().then(() => (bounded = true));
    vi.advanceTimersByTime(QUIET_MAX_MS);
    await turns(2);
    expect(bounded).toBe(true);
    let flushed = false;
    void quiet.wait().then(() => (flushed = true));
    quiet.flush();
    await turns(2);
    expect(flushed).toBe(true);
  });
});

import { afterEach, describe, expect, it } from 'vitest';
import { DEFAULT_LIMITS } from '../../../../src/contracts/limits.js';
import { RING_DOORBELL } from '../../../../src/contracts/sink-ring.js';
import {
  ENGINE_MAIN_THREAD,
  RingPace,
  ringPacing,
  setRingPacing,
  SHARED_MAIN_THREAD,
} from '../../../../src/thread-host/ports/ring-pace.js';
import { RunStream } from '../../../../src/thread-host/ports/run-stream.js';
import { exposeSinks } from '../../../../src/thread-host/ports/sink-port.js';
import { SinkRing } from '../../../../src/thread-host/ports/sink-ring.js';
import { ThreadPort } from '../../../../src/thread-host/ports/thread-port.js';
import { proxySinks } from '../../../../src/worker/sink-proxy.js';
import { SinkRingWriter } from '../../../../src/worker/sink-ring-writer.js';

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

/** A thread's sink channel and ring with the host's end of one run, both ends in this thread. */
function pair() {
  const channel = new ThreadPort();
  const ring = new SinkRing();
  const stream = new RunStream({ out: { mimetype: 'text/plain' } });
  const host = exposeSinks(stream, { channel, ring });
  const port = channel.workerPort;
  const writer = SinkRingWriter.open(ring.buffer, () => port.postMessage(RING_DOORBELL))!;
  const worker = proxySinks(port, { hasEntry: false, budget: DEFAULT_LIMITS.sinkMessages, ring: writer });
  return { stream, host, ...worker };
}

const turns = async (count: number) => {
  for (let i = 0; i < count; i++) await new Promise((resolve) => setImmediate(resolve));
};

describe('reading a sink ring at a pace', () => {
  afterEach(() => setRingPacing(SHARED_MAIN_THREAD));

  it('is unpaced on a main thread every package shares, and paced in an engine', () => {
    expect(ringPacing()).toBe(SHARED_MAIN_THREAD);
    expect(SHARED_MAIN_THREAD.perMs).toBe(Infinity);
    expect(Number.isFinite(ENGINE_MAIN_THREAD.perMs)).toBe(true);
    expect(ENGINE_MAIN_THREAD.burst).toBeGreaterThanOrEqual(ENGINE_MAIN_THREAD.share);
  });

  it('reads a flood past its burst no faster than its rate, on a timer, every write in order', async () => {
    setRingPacing({ share: 8, perMs: 0.5, burst: 16 });
    const started = performance.now();
    const { stream, host, sinks } = pair();
    sinks.write('out', 'a');
    for (let i = 0; i < 40; i++) sinks.write('out', String(i % 10));
    await turns(10);
    // The burst was read, a share a turn; further turns read nothing more: the rest waits for a timer.
    const early = stream.channels.out!.text.length;
    expect(early).toBeGreaterThan(1);
    expect(early).toBeLessThanOrEqual(1 + 16);
    while (stream.channels.out!.text.length < 41 && performance.now() - started < 5_000)
      await new Promise((resolve) => setTimeout(resolve, 5));
    // 40 records, 16 at once and 0.5 a millisecond after: none can have been read before 48 ms.
    expect(performance.now() - started).toBeGreaterThanOrEqual(48);
    expect(stream.channels.out!.text).toBe(`a${'0123456789'.repeat(4)}`);
    host.close();
  });

  it("drains all the ring holds at the run's end, whatever the pace", async () => {
    setRingPacing({ share: 4, perMs: 0.01, burst: 4 });
    const { stream, host, sinks } = pair();
    sinks.write('out', 'a');
    for (let i = 0; i < 100; i++) sinks.write('out', 'x');
    await turns(5);
    expect(stream.channels.out!.text.length).toBeLessThan(101);
    host.drain();
    expect(stream.channels.out!.text).toBe(`a${'x'.repeat(100)}`);
    host.close();
  });

  it('reads the same flood within a few turns when unpaced', async () => {
    const { stream, host, sinks } = pair();
    sinks.write('out', 'a');
    for (let i = 0; i < 40; i++) sinks.write('out', 'x');
    await turns(10);
    expect(stream.channels.out!.text).toBe(`a${'x'.repeat(40)}`);
    host.close();
  });
});

import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Notice } from '../../../src/contracts/notice.js';
import { createHost, type EmbeddingSinks, type Host } from '../../../src/host/index.js';
import { ENGINE_MAIN_THREAD, SHARED_MAIN_THREAD } from '../../../src/thread-host/ports/ring-pace.js';
import { enginePids } from '../../helpers/engine-pids.js';
import { handshake } from '../../helpers/handshake.js';
import { watchHostErrors } from '../../helpers/zoo.js';

const FIXTURES = fileURLToPath(new URL('../../../fixtures/engine', import.meta.url));

type Call = ['write', string, string] | ['setState', string, string] | ['emit', Notice];

/** Sinks that record every call in the order the service received them. */
function recorder(): { calls: Call[]; sinks: EmbeddingSinks } {
  const calls: Call[] = [];
  return {
    calls,
    sinks: {
      write: (channel, chunk) => void calls.push(['write', channel, chunk]),
      setState: (channel, state) => void calls.push(['setState', channel, state]),
      emit: (notice) => void calls.push(['emit', notice]),
    },
  };
}

/** What the fixture's `interleave` run calls, in its order, and its host after it (fixtures/engine/engine-faults). */
function interleaved(): Call[] {
  const calls: Call[] = [];
  for (let i = 0; i < 20_000; i++) {
    calls.push(['write', 'out', `${i}:${'x'.repeat(60)}\n`]);
    if (i < 10_000 && i % 500 === 0) calls.push(['write', 'side', `s${i}`]);
    if (i === 10_000) calls.push(['setState', 'side', 'closed']);
    if (i % 1000 === 999) calls.push(['emit', { source: 'exec', kind: 'progress', level: 'info', message: String(i) }]);
  }
  // The host closes the channel the run left active.
  calls.push(['setState', 'out', 'closed']);
  return calls;
}

// The engine forwards the sink calls of one event-loop turn as one frame (src/engine/sink-batch.ts):
// the service must still see every call of every run, in order, and keep what arrived before a crash.
describe('the process tier forwards sink calls in batches', () => {
  let host: Host;
  const hostErrors = watchHostErrors();

  beforeAll(async () => {
    host = await createHost({
      isolation: 'process',
      packageDirs: [join(FIXTURES, 'engine-faults')],
      breaker: { crashes: 1000 },
      // No heartbeat in these tests' time: a batch is sent at its turn's end, not carried by a later frame.
      limits: { graceMs: 300, heartbeatMs: 600_000, unresponsiveMs: 1_200_000 },
    });
  });
  afterAll(async () => {
    await host.close();
    expect(hostErrors.errors).toEqual([]);
    hostErrors.dispose();
  });

  it('hands every call of two concurrent runs to their sinks complete and in order, past many batches', async () => {
    const [a, b] = [recorder(), recorder()];
    const [outA, outB] = await Promise.all([
      host.exec({ runtime: 'engine-faults', body: 'interleave', sinks: a.sinks }),
      host.exec({ runtime: 'engine-faults', body: 'interleave', sinks: b.sinks }),
    ]);
    const expected = interleaved();
    for (const [out, seen] of [
      [outA, a],
      [outB, b],
    ] as const) {
      expect(out.result.status).toBe(200);
      // Compared as one value: a mismatch among 20,000 calls is still one readable difference.
      expect(seen.calls.length).toBe(expected.length);
      expect(seen.calls).toEqual(expected);
      const written = (channel: string) =>
        expected
          .filter((call) => call[0] === 'write' && call[1] === channel)
          .map((call) => call[2])
          .join('');
      expect(out.channels.out?.text).toBe(written('out'));
      expect(out.channels.side).toMatchObject({ text: written('side'), state: 'closed' });
      expect(out.notices).toEqual(expected.filter((call) => call[0] === 'emit').map((call) => call[1]));
    }
  });

  it('hands a write to the service while its run goes on: a batch leaves at the end of the engine’s turn', async () => {
    const written = handshake<string>();
    const controller = new AbortController();
    const running = host.exec({
      runtime: 'engine-faults',
      body: 'wait',
      signal: controller.signal,
      sinks: { write: (_channel, chunk) => written.resolve(chunk) },
    });
    expect(await written.promise).toBe('waiting');
    controller.abort();
    expect((await running).channels.out?.text).toBe('waiting');
  });

  it('reads a flood in the engine’s own larger batches, which the service applies one per turn', async () => {
    // The longest run of write calls the service made in one turn of its loop: a batch the engine read at once.
    let stretch = 0;
    let longest = 0;
    let counting = false;
    let total = 0;
    const controller = new AbortController();
    const out = await host.exec({
      runtime: 'engine-faults',
      body: 'flood',
      signal: controller.signal,
      sinks: {
        write: () => {
          if (++total === 40_000) controller.abort();
          stretch++;
          if (counting) return;
          counting = true;
          setImmediate(() => {
            longest = Math.max(longest, stretch);
            stretch = 0;
            counting = false;
          });
        },
      },
    });
    expect(out.result.status).toBe(499);
    expect(total).toBeGreaterThanOrEqual(40_000);
    // Read a shared main thread's share at a time (256), a flood reaches the service in batches
    // of 256–330 calls; the engine sets its own pacing (engine-entry.ts), 2,048 at a time.
    expect(SHARED_MAIN_THREAD.share).toBeLessThan(ENGINE_MAIN_THREAD.share / 4);
    expect(longest).toBeGreaterThan(ENGINE_MAIN_THREAD.share / 2);
  });

  it('keeps exactly what the service saw of a flood whose engine was killed mid-run', async () => {
    const chunks: string[] = [];
    const flowing = handshake();
    const running = host.exec({
      runtime: 'engine-faults',
      body: 'flood',
      sinks: {
        write: (_channel, chunk) => {
          chunks.push(chunk);
          if (chunks.length === 5000) flowing.resolve();
        },
      },
    });
    await flowing.promise;
    for (const engine of enginePids().engine) process.kill(engine, 'SIGKILL');
    const out = await running;
    expect(out.result).toMatchObject({ status: 500, problem: { type: expect.stringMatching(/engine-crashed$/) } });
    // Every write the service was handed is in the outcome, in the leaf's order, with no gap.
    expect(chunks.length).toBeGreaterThanOrEqual(5000);
    expect(chunks).toEqual(chunks.map((_chunk, i) => `${i}\n`));
    expect(out.channels.out).toMatchObject({ text: chunks.join(''), state: 'errored' });
  });

  it('treats a forged, malformed sink batch as a corrupt engine and applies none of it', async () => {
    const seen = recorder();
    const out = await host.exec({
      runtime: 'engine-faults',
      body: 'forge-batch',
      sinks: { ...seen.sinks, interact: async () => ({ status: 'cancelled' as const }) },
    });
    expect(out.result).toMatchObject({
      status: 500,
      problem: { detail: expect.stringMatching(/corrupt engine channel: a malformed frame/) },
    });
    expect(out.channels.out?.text).toBe('before the fault');
    expect(seen.calls).toEqual([['write', 'out', 'before the fault']]);
    // The next engine serves the next run.
    expect((await host.exec({ runtime: 'engine-faults', body: 'whoami' })).result.status).toBe(200);
  });
});

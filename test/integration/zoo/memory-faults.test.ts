import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { createHost, type Host } from '../../../src/host/index.js';
import { expectContained, watchHostErrors, zooDirs } from '../../helpers/zoo.js';

const MB = 1024 * 1024;

// resourceLimits caps only the JS heap. Buffers, ArrayBuffers and WebAssembly memories are
// caught by what each thread reports with its heartbeat (limits.externalMb); a synchronous
// bomb that never reports is caught by the host's own RSS (limits.rssMb). Each bomb stops by
// itself at a ceiling and then succeeds, so a limit that does not work fails its test.
describe('the zoo: memory bombs', () => {
  const hostErrors = watchHostErrors();
  afterEach(() => expect(hostErrors.errors).toEqual([]));
  afterAll(() => hostErrors.dispose());

  describe('within what a thread reports', () => {
    let host: Host;
    beforeAll(async () => {
      host = await createHost({
        packageDirs: zooDirs(
          'healthy',
          'heap-bomb',
          'buffer-bomb',
          'arraybuffer-bomb',
          'wasm-memory-growth',
          'lies-about-memory',
        ),
        breaker: { crashes: 1000 },
        limits: { heapMb: 64, externalMb: 64, heartbeatMs: 50, graceMs: 300 },
      });
    });
    afterAll(() => host.close());

    it('ends a heap bomb at the thread heap cap: 500 memory-limit-exceeded', async () => {
      const out = await expectContained(host, {
        runtime: 'heap-bomb',
        problem: 'exec/memory-limit-exceeded',
        status: 500,
        forcedEnd: { reason: 'heap-limit', terminated: false },
        kept: 'before the fault',
        next: { body: 'ok' },
      });
      expect(out.result.problem?.detail).toBe(
        'the worker thread ran out of JS heap during run() and died (limits.heapMb 64)',
      );
    });

    // V8 counts WebAssembly memories in `external` only up to Node 24, and shared ones never: the
    // thread adds the memories it made or was handed by an instance, whichever Node runs it.
    it.each([
      ['buffer-bomb', 'fault'],
      ['arraybuffer-bomb', 'fault'],
      ['wasm-memory-growth', 'fault'],
      ['wasm-memory-growth', 'wasm-grow'],
      ['wasm-memory-growth', 'shared'],
      ['lies-about-memory', 'fault'],
    ])('ends %s (%s) past limits.externalMb from the memory its thread reports', async (runtime, body) => {
      const out = await expectContained(host, {
        runtime,
        body,
        problem: 'exec/memory-limit-exceeded',
        status: 500,
        forcedEnd: { reason: 'external-limit', terminated: true },
        kept: 'before the fault',
        next: { body: 'ok' },
      });
      expect(out.result.problem?.detail).toMatch(
        /^the worker thread holds \d+ MB outside its JS heap \(Buffers, ArrayBuffers, WebAssembly memory: \d+ MB in ArrayBuffers\), over limits.externalMb 64$/,
      );
    });
  });

  describe('beyond what a thread reports', () => {
    let host: Host;
    beforeAll(async () => {
      host = await createHost({
        packageDirs: zooDirs('healthy', 'sync-buffer-bomb'),
        breaker: { crashes: 1000 },
        // The thread's own report would never arrive; the host's RSS is all there is.
        limits: {
          externalMb: 1_000_000,
          rssMb: Math.round(process.memoryUsage.rss() / MB) + 256,
          heartbeatMs: 50,
          unresponsiveMs: 60_000,
          graceMs: 300,
        },
      });
    });
    afterAll(() => host.close());

    it('ends a synchronous Buffer bomb when the host process passes limits.rssMb, naming the silent thread', async () => {
      const out = await expectContained(host, {
        runtime: 'sync-buffer-bomb',
        problem: 'exec/memory-limit-exceeded',
        status: 500,
        forcedEnd: { reason: 'rss-limit', terminated: true },
        kept: 'before the fault',
        next: { body: 'ok' },
      });
      expect(out.result.problem?.detail).toMatch(
        /^the host process's resident memory reached \d+ MB, over limits.rssMb \d+; this run was the (?:only one in flight|likeliest cause of \d+ in flight) \(its thread has been silent for \d+ms\)$/,
      );
    });
  });
});

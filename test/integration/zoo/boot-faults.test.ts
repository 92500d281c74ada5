import { rmSync, writeFileSync } from 'node:fs';
import { createServer, type Server, type Socket } from 'node:net';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { createHost } from '../../../src/host/index.js';
import { scratchDir } from '../../helpers/scratch.js';
import { expectContained, watchHostErrors, zooDirs, zooHost } from '../../helpers/zoo.js';
import { tierOptions } from '../../helpers/tier.js';

/**
 * The load bound of these hosts: what a stalled import is given, and what every healthy thread
 * must load within. A busy 2-core machine (load 12 measured) took over 3 s to load six tags at once.
 */
const LOAD_MS = 8000;

/** A zoo fixture's own key (in its .env.defaults): its threads see it in either tier. */
const ownKey = (tag: string, what: 'LIVENESS' | 'GATE') => `ZOO_${tag.toUpperCase().replace(/-/g, '_')}_${what}`;

/**
 * One socket server per tag in `dir` (`<tag>.sock`): every thread that loads a liveness leaf
 * holds a connection to its tag's server, so a thread's end is its connection's end.
 */
function watchThreads(dir: string, tags: string[]) {
  const servers: Server[] = [];
  const state = new Map(tags.map((tag) => [tag, { open: new Set<Socket>(), seen: 0, waiters: [] as (() => void)[] }]));
  const settle = (tag: string) => {
    const s = state.get(tag)!;
    for (const wake of s.waiters.splice(0)) wake();
  };
  const listening = tags.map((tag) => {
    const s = state.get(tag)!;
    const server = createServer((socket) => {
      s.open.add(socket);
      s.seen += 1;
      socket.once('close', () => {
        s.open.delete(socket);
        settle(tag);
      });
      settle(tag);
    });
    servers.push(server);
    return new Promise<void>((resolve) => server.listen(join(dir, `${tag}.sock`), resolve));
  });
  /** Resolves once `holds()` is true for `tag`, re-checked at every connection and disconnection. */
  const when = (tag: string, holds: (s: { open: Set<Socket>; seen: number }) => boolean) =>
    new Promise<void>((resolve) => {
      const check = () => (holds(state.get(tag)!) ? resolve() : state.get(tag)!.waiters.push(check));
      check();
    });
  return {
    ready: Promise.all(listening),
    /** How many threads of `tag` loaded its leaf so far. */
    loaded: (tag: string) => state.get(tag)!.seen,
    /** Resolves once `n` threads of `tag` have connected. */
    connected: (tag: string, n: number) => when(tag, (s) => s.seen >= n),
    /** Resolves once every thread of `tag` that connected has ended. */
    allEnded: (tag: string) => when(tag, (s) => s.seen > 0 && s.open.size === 0),
    close: () => servers.forEach((server) => server.close()),
  };
}

// docs/host.md, Boot: a probe that rejects, returns a malformed verdict, or comes with invalid
// channels makes only its tag unavailable and its thread is terminated; an unavailable tag keeps
// no threads; an import that never finishes is given up after loadTimeoutMs.
describe('the zoo: faults at boot', () => {
  const FAULTY = ['probe-rejects', 'probe-malformed-verdict', 'declares-invalid-channels', 'unavailable-here'];
  const dir = scratchDir('zoo-boot');
  const threads = watchThreads(dir, FAULTY);
  const host = zooHost(async () => {
    await threads.ready;
    writeFileSync(join(dir, 'stall'), '');
    return {
      packageDirs: zooDirs('healthy', 'stalls-at-import', ...FAULTY),
      env: {
        ...process.env,
        ...Object.fromEntries(FAULTY.map((tag) => [ownKey(tag, 'LIVENESS'), dir])),
        [ownKey('stalls-at-import', 'GATE')]: join(dir, 'stall'),
      },
      loadTimeoutMs: LOAD_MS,
      breaker: { crashes: 1000 },
    };
  });
  afterAll(() => threads.close());

  it.each([
    ['probe-rejects', { fault: 'probe-threw', detail: 'probe threw: TypeError: probe-rejects cannot tell' }],
    [
      'probe-malformed-verdict',
      { fault: 'invalid-verdict', detail: expect.stringMatching(/^probe returned an invalid verdict: .*available/) },
    ],
    [
      'declares-invalid-channels',
      {
        fault: 'invalid-channels',
        detail: expect.stringMatching(/^the executor declares invalid channels: .*mimetype must not be empty/),
      },
    ],
    ['unavailable-here', { detail: 'needs zoo-tool 1.x on PATH' }],
  ])('makes only %s unavailable, with why, and keeps none of its threads', async (runtime, verdict) => {
    const availability = host().availability(runtime);
    expect(availability).toMatchObject({ available: false, ...verdict });
    // The environment's own "cannot run here" carries no fault: the leaf is not broken.
    if (!('fault' in verdict)) expect(availability).not.toHaveProperty('fault');
    expect(host().availableRuntimes()).toEqual(['healthy']);
    // Its leaf loaded in exactly one thread (the probe's), and that thread is gone.
    expect(threads.loaded(runtime)).toBe(1);
    await threads.allEnded(runtime);
    const out = await expectContained(host(), {
      runtime,
      body: 'ok',
      problem: 'exec/runtime-unavailable',
      status: 501,
      next: 'unavailable',
    });
    expect(out.result.problem?.detail).toBe(`runtime ${runtime} is unavailable: ${availability!.detail}`);
    expect(threads.loaded(runtime)).toBe(1);
  });

  it('gives up on an import that never finishes (a top-level await) after loadTimeoutMs', async () => {
    expect(host().availability('stalls-at-import')).toEqual({
      available: false,
      fault: 'load-timeout',
      detail: `the leaf did not load within loadTimeoutMs ${LOAD_MS}ms`,
      probeMs: 0,
    });
    expect((await host().exec({ runtime: 'healthy', body: 'after' })).result).toEqual({ status: 200 });
  });
});

// The same load bound holds after boot, for a thread that starts later and never finishes
// loading: an effect() call fails 500 executor-threw, a run not acknowledged 500
// executor-unresponsive; either thread is terminated, and the tag runs again once it loads.
describe('the zoo: a thread that never loads after boot', () => {
  const hostErrors = watchHostErrors();
  afterAll(() => hostErrors.dispose());

  // Two load bounds run out in this test, one after the other: it gets a timeout of its own.
  it(
    'bounds effect() and the run acknowledgement by loadTimeoutMs',
    async () => {
      const dir = scratchDir('zoo-stall');
      const gate = join(dir, 'stall');
      const stalled = watchThreads(dir, ['stalls-at-import']);
      await stalled.ready;
      const host = await createHost({
        ...tierOptions(),
        packageDirs: zooDirs('healthy', 'stalls-at-import'),
        env: {
          ...process.env,
          [ownKey('stalls-at-import', 'GATE')]: gate,
          [ownKey('stalls-at-import', 'LIVENESS')]: dir,
        },
        loadTimeoutMs: LOAD_MS,
        breaker: { crashes: 1000 },
        // One spare at a time, so each run below meets the thread this test waited for (more
        // spares, sized to demand, could be started so late that they import after the gate is gone).
        spares: { max: 1 },
      });
      try {
        // The probe's thread loaded before the gate existed: it serves the first run. Every
        // thread started from now on stalls at import, the spare this run's end starts first.
        writeFileSync(gate, '');
        expect((await host.exec({ runtime: 'stalls-at-import', body: 'ok' })).result).toEqual({ status: 200 });
        await stalled.connected('stalls-at-import', 1);

        // effect() is called first, in the thread that will run.
        const effect = await host.exec({ runtime: 'stalls-at-import', body: 'ok' });
        expect(effect.result.problem).toMatchObject({
          type: 'https://problems.plurnk.xyz/scheme/exec/executor-threw',
          status: 500,
          detail: expect.stringContaining(`the leaf did not load within loadTimeoutMs ${LOAD_MS}ms`),
        });
        // With the effect given, the run itself is posted to the next stalled thread and never acknowledged.
        await stalled.connected('stalls-at-import', 2);
        const unacknowledged = host.exec({ runtime: 'stalls-at-import', body: 'ok', effect: 'pure' });
        // Threads started from now on load again.
        rmSync(gate);
        const run = await unacknowledged;
        expect(run.result.problem).toMatchObject({
          type: 'https://problems.plurnk.xyz/scheme/exec/executor-unresponsive',
          status: 500,
          detail: `the worker thread did not acknowledge the run within loadTimeoutMs ${LOAD_MS}ms (the leaf did not finish loading)`,
        });
        expect(run.containment?.forcedEnd).toEqual({ reason: 'unresponsive', terminated: true });
        expect((await host.exec({ runtime: 'healthy', body: 'meanwhile' })).result).toEqual({ status: 200 });
        // Both stalled threads were terminated, and the tag serves again from a thread that loaded.
        await stalled.allEnded('stalls-at-import');
        const again = await host.exec({ runtime: 'stalls-at-import', body: 'ok', effect: 'pure' });
        expect(again.result).toEqual({ status: 200 });
        expect(again.channels.out!.text).toBe('ok');
        expect(stalled.loaded('stalls-at-import')).toBe(2);
      } finally {
        await host.close();
        stalled.close();
      }
      expect(hostErrors.errors).toEqual([]);
    },
    4 * LOAD_MS + 30_000,
  );
});

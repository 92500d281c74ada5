import { afterAll, describe, expect, it } from 'vitest';
import { createHost, type Host, type HostOptions } from '../../../src/host/index.js';
import { tierOptions } from '../../helpers/tier.js';
import { watchHostErrors, zooDirs } from '../../helpers/zoo.js';

/** The thread a healthy tag of the `probes-together` package says probed it. */
const probedIn = (host: Host, tag: string) =>
  /^probed in thread (\d+)$/.exec(host.availability(tag)?.detail ?? '')?.[1];

/** Boots a host over the `probes-together` package serving only `tags`, runs `check` on it, closes it. */
async function withPackage(tags: string[], options: HostOptions, check: (host: Host) => Promise<void>) {
  const host = await createHost({
    ...tierOptions(),
    packageDirs: zooDirs('probes-together'),
    tags,
    probeTimeoutMs: 1000,
    ...options,
  });
  try {
    await check(host);
  } finally {
    await host.close();
  }
}

// docs/host.md, Boot: the tags of one package are probed in one thread; a probe that ends or
// hangs that thread costs only its own tag, whose verdict is what a thread of its own gives.
describe('the zoo: tags of one package probed in one thread', () => {
  const hostErrors = watchHostErrors();
  afterAll(() => {
    hostErrors.dispose();
    expect(hostErrors.errors).toEqual([]);
  });

  it.each(['each-run', 'never'] as const)(
    'probes healthy tags together, and the first EXEC of each runs under %s',
    async (recycle) => {
      await withPackage(['pair-a', 'pair-b'], { recycle }, async (host) => {
        expect(host.availableRuntimes()).toEqual(['pair-a', 'pair-b']);
        expect(probedIn(host, 'pair-a')).toBeDefined();
        expect(probedIn(host, 'pair-b')).toBe(probedIn(host, 'pair-a'));
        for (const runtime of ['pair-a', 'pair-b', 'pair-a']) {
          const out = await host.exec({ runtime, body: 'ok' });
          expect(out.result).toEqual({ status: 200 });
          expect(out.channels.out!.text).toMatch(/^ok in thread \d+$/);
        }
      });
    },
  );

  it('probes the tags after a first tag whose probe ends the thread each in a thread of its own', async () => {
    await withPackage(['pair-exits', 'pair-a'], {}, async (host) => {
      expect(host.availability('pair-exits')).toEqual({
        available: false,
        fault: 'thread-died',
        detail: 'the worker thread died while probing: the worker thread exited with code 3',
        probeMs: expect.any(Number),
      });
      expect(host.availableRuntimes()).toEqual(['pair-a']);
      expect((await host.exec({ runtime: 'pair-a', body: 'ok' })).result).toEqual({ status: 200 });
    });
  });

  it("charges a thread's end to the tag whose probe ended it, never to the tags probed before it", async () => {
    await withPackage(['pair-a', 'pair-b', 'pair-dies'], { breaker: { crashes: 1 } }, async (host) => {
      expect(host.availability('pair-dies')).toMatchObject({
        available: false,
        fault: 'thread-died',
        detail: 'the worker thread died while probing: the worker thread exited with code 3',
      });
      expect(host.availableRuntimes()).toEqual(['pair-a', 'pair-b']);
      expect(probedIn(host, 'pair-b')).toBe(probedIn(host, 'pair-a'));
      // One crash degrades a tag here: the shared thread's end was not pair-a's (the thread it started for).
      expect(host.availability('pair-a')?.degraded).toBeUndefined();
      expect((await host.exec({ runtime: 'pair-a', body: 'ok' })).result).toEqual({ status: 200 });
    });
  });

  it('gives a hanging probe its timeout and probes the tags after it each alone', async () => {
    const verdicts: string[] = [];
    const onProbe = (tag: string) => void verdicts.push(tag);
    await withPackage(['pair-a', 'pair-spins', 'pair-b'], { onProbe }, async (host) => {
      expect(host.availability('pair-spins')).toEqual({
        available: false,
        fault: 'probe-timeout',
        detail: 'probe exceeded 1000ms',
        probeMs: expect.any(Number),
      });
      expect(host.availableRuntimes()).toEqual(['pair-a', 'pair-b']);
      // pair-b was probed after the spinning thread was given up: in another thread.
      expect(probedIn(host, 'pair-b')).not.toBe(probedIn(host, 'pair-a'));
      expect(verdicts).toEqual(['pair-a', 'pair-spins', 'pair-b']);
      expect((await host.exec({ runtime: 'pair-b', body: 'ok' })).result).toEqual({ status: 200 });
    });
  });
});

import { readdirSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { createHost } from '../../../src/host/index.js';
import { discover, isPlurnkExecsError } from '../../../src/index.js';
import { fixtureDiscovery, HOST_FIXTURES } from '../../helpers/fixture-discovery.js';

const ALL_HOST_FIXTURES = readdirSync(HOST_FIXTURES).sort();

describe('createHost', () => {
  it('discovers the given packages and boots them in the process tier by default', async () => {
    const host = await createHost({
      packageDirs: [join(HOST_FIXTURES, 'exec-echo')],
      env: { 'PLURNK_EXECS_ECHO-TARGET': '0' },
    });
    try {
      // With no isolation asked for, the leaves run in an engine process of the host's own.
      expect(host.isolation().tier).toBe('process');
      expect(host.discovery.disabled).toEqual(['echo-target']);
      expect(host.availableRuntimes()).toEqual(['echo', 'echo-either', 'echo-literal']);
      // The framework's own .env.defaults floor gives the error-detail limit.
      expect(host.discovery.env.PLURNK_EXECS_ERROR_DETAIL_LIMIT).toBe('512');
      const out = await host.exec({
        runtime: 'echo',
        body: 'through discovery',
        address: { loop: 1, turn: 2, sequence: 3 },
      });
      expect(out.result.status).toBe(200);
      expect(out.address).toBe('echo:///1/2/3');
    } finally {
      await host.close();
    }
  });

  it('tells onProbe each verdict as it arrives, and a throwing onProbe changes nothing', async () => {
    const seen: [string, boolean][] = [];
    const host = await createHost({
      packageDirs: [join(HOST_FIXTURES, 'exec-echo'), join(HOST_FIXTURES, 'exec-unavailable')],
      onProbe: (tag, verdict) => {
        seen.push([tag, verdict.available]);
        throw new Error('progress display broke');
      },
    });
    try {
      expect(seen.sort()).toEqual([
        ['absent', false],
        ['echo', true],
        ['echo-either', true],
        ['echo-literal', true],
        ['echo-target', true],
      ]);
      expect(host.availableRuntimes()).toEqual(['echo', 'echo-either', 'echo-literal', 'echo-target']);
    } finally {
      await host.close();
    }
  });

  it('rejects with the discovery error when a declaration is malformed', async () => {
    const bad = join(HOST_FIXTURES, '..', 'discovery', 'invalid', 'node_modules');
    const dirs = readdirSync(bad)
      .filter((name) => !name.startsWith('.'))
      .map((name) => join(bad, name));
    const failure = await createHost({ packageDirs: dirs }).then(
      () => undefined,
      (error: unknown) => error,
    );
    const direct = await discover({ packageDirs: dirs }).then(
      () => undefined,
      (error: unknown) => error,
    );
    expect(isPlurnkExecsError(failure)).toBe(true);
    expect(failure).toMatchObject({ code: 'invalid-declaration', message: (direct as Error).message });
    expect((failure as Error).message).toMatch(/nameless.*Fix: give the package a "name"/);
  });

  it('accepts every host fixture with the same registry the host tests build by hand', async () => {
    const discovered = await discover({
      packageDirs: ALL_HOST_FIXTURES.map((name) => join(HOST_FIXTURES, name)),
      env: {},
    });
    const byHand = fixtureDiscovery(ALL_HOST_FIXTURES);
    expect([...discovered.registry.keys()].sort()).toEqual([...byHand.registry.keys()].sort());
    for (const [tag, entry] of byHand.registry) {
      expect(discovered.registry.get(tag)).toMatchObject({
        runtime: tag,
        packageName: entry.packageName,
        entryUrl: entry.entryUrl,
        glyph: entry.glyph,
      });
    }
  });
});

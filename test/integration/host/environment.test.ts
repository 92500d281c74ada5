import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { bootHost, type Host } from '../../../src/host/index.js';
import { fixtureDiscovery } from '../../helpers/fixture-discovery.js';

const PLANTED = { PLURNK_SECRET: 'hunter2', MY_API_TOKEN: 'tok', DB_PASSWORD: 'pw', PLAIN_SETTING: 'visible' };
const NAMES = [...Object.keys(PLANTED), 'PLURNK_EXECS_ERROR_DETAIL_LIMIT', 'PATH', 'RUN_ONLY'].join(',');

type EnvReport = { processEnv: Record<string, string | null>; argsEnv: Record<string, string | null> | null };

// Each thread gets its own env: the host's without PLURNK_* keys and credential-looking
// names (plus the error-detail limit), or the run's own env while that run executes.
describe('executor thread environment', () => {
  let host: Host;
  const saved: Record<string, string | undefined> = {};
  beforeAll(async () => {
    for (const [key, value] of Object.entries(PLANTED)) {
      saved[key] = process.env[key];
      process.env[key] = value;
    }
    host = await bootHost(fixtureDiscovery(['exec-reads-env']), { recycle: 'never' });
  });
  afterAll(async () => {
    await host.close();
    for (const [key, value] of Object.entries(saved)) {
      if (value === undefined) delete process.env[key];
      else process.env[key] = value;
    }
  });

  const report = async (env?: NodeJS.ProcessEnv, change?: string) => {
    const out = await host.exec({
      runtime: 'env',
      body: change ? `${change}:${NAMES},LEAKED` : NAMES,
      ...(env ? { env } : {}),
    });
    return JSON.parse(out.channels.results!.text) as EnvReport;
  };

  it('hides PLURNK_* keys and credential-looking names from a leaf reading process.env', async () => {
    const { processEnv, argsEnv } = await report();
    expect(processEnv).toMatchObject({
      PLURNK_SECRET: null,
      MY_API_TOKEN: null,
      DB_PASSWORD: null,
      PLAIN_SETTING: 'visible',
      PLURNK_EXECS_ERROR_DETAIL_LIMIT: '512',
    });
    expect(processEnv.PATH).toBe(process.env.PATH);
    expect(argsEnv).toBeNull();
  });

  it("makes the run's env the thread's process.env and args.env for that run only", async () => {
    const inside = await report({ RUN_ONLY: 'yes', PLURNK_SECRET: 'given on purpose' });
    expect(inside.argsEnv).toMatchObject({
      RUN_ONLY: 'yes',
      PLURNK_SECRET: 'given on purpose',
      PATH: null,
      PLURNK_EXECS_ERROR_DETAIL_LIMIT: null,
    });
    // The limit stays beneath a run env that lacks it; nothing of the host's leaks in.
    expect(inside.processEnv).toMatchObject({
      RUN_ONLY: 'yes',
      PLURNK_SECRET: 'given on purpose',
      PLAIN_SETTING: null,
      PATH: null,
      PLURNK_EXECS_ERROR_DETAIL_LIMIT: '512',
    });
    // The next run in the same thread ('never') is back on the baseline.
    const after = await report();
    expect(after.processEnv).toMatchObject({ RUN_ONLY: null, PLURNK_SECRET: null, PLAIN_SETTING: 'visible' });
  });

  it.each([
    ['set', { LEAKED: 'set by an earlier run' }],
    ['define', { LEAKED: 'defined by an earlier run' }],
    ['delete', { PLAIN_SETTING: null }],
    ['replace', { LEAKED: 'replaced by an earlier run', PLAIN_SETTING: null, PATH: null }],
  ])(
    'puts the baseline back after a run that changed process.env (%s) for the next run in the thread',
    async (change, seen) => {
      const during = await report(undefined, change);
      expect(during.processEnv).toMatchObject(seen);
      const after = await report();
      expect(after.processEnv).toMatchObject({
        PLAIN_SETTING: 'visible',
        PLURNK_SECRET: null,
        PLURNK_EXECS_ERROR_DETAIL_LIMIT: '512',
      });
      expect(after.processEnv.PATH).toBe(process.env.PATH);
      expect((await report(undefined, 'none')).processEnv.LEAKED).toBeNull();
    },
  );
});

describe('a leaf that replaces process.env while it loads', () => {
  let host: Host;
  beforeAll(async () => {
    host = await bootHost(fixtureDiscovery(['exec-replaces-env-at-import']), { recycle: 'never' });
  });
  afterAll(() => host.close());

  const report = async (env?: NodeJS.ProcessEnv) => {
    const out = await host.exec({
      runtime: 'env-at-import',
      body: 'FROM_IMPORT,RUN_ONLY,PATH',
      ...(env ? { env } : {}),
    });
    return JSON.parse(out.channels.results!.text) as Record<string, string | null>;
  };

  it('still gets the run env, then the thread baseline, in process.env', async () => {
    expect(await report({ RUN_ONLY: 'yes' })).toEqual({ FROM_IMPORT: null, RUN_ONLY: 'yes', PATH: null });
    expect(await report()).toEqual({ FROM_IMPORT: null, RUN_ONLY: null, PATH: process.env.PATH });
  });
});

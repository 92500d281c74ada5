import { describe, expect, it } from 'vitest';
import {
  isCredentialName,
  packageOwnedEnv,
  resolveErrorDetailLimit,
  workerBaseEnv,
} from '../../../../src/thread-host/threads/worker-env.js';

describe('isCredentialName', () => {
  it.each([
    'GITHUB_TOKEN',
    'NPM_TOKEN',
    'AWS_SECRET_ACCESS_KEY',
    'AWS_ACCESS_KEY_ID',
    'PGPASSWORD',
    'DB_PASSWD',
    'API_KEY',
    'OPENAI_APIKEY',
    'GOOGLE_APPLICATION_CREDENTIALS',
    'SSH_AUTH_SOCK',
    'my_secret',
    'SESSION_COOKIE',
  ])('treats %s as a credential', (name) => expect(isCredentialName(name)).toBe(true));

  it.each(['PATH', 'HOME', 'PWD', 'LANG', 'TERM', 'KEYBOARD_LAYOUT', 'NODE_ENV', 'SHELL', 'MONKEY'])(
    'keeps %s',
    (name) => {
      expect(isCredentialName(name)).toBe(false);
    },
  );
});

describe('workerBaseEnv', () => {
  it('drops PLURNK_* keys, credentials and undefined values, and sets the error-detail limit', () => {
    const env = workerBaseEnv(
      {
        PATH: '/bin',
        PLURNK_SECRET: 's',
        plurnk_lower: 'l',
        PLURNK_EXECS_ERROR_DETAIL_LIMIT: '9',
        GH_TOKEN: 't',
        UNSET: undefined,
        HOME: '/root',
      },
      512,
    );
    expect(env).toEqual({ PATH: '/bin', HOME: '/root', PLURNK_EXECS_ERROR_DETAIL_LIMIT: '512' });
  });
});

describe('resolveErrorDetailLimit', () => {
  it("takes discovery's value when it is valid", async () => {
    expect(await resolveErrorDetailLimit({ PLURNK_EXECS_ERROR_DETAIL_LIMIT: '64' })).toBe(64);
  });

  it.each([[{}], [{ PLURNK_EXECS_ERROR_DETAIL_LIMIT: 'lots' }]])(
    "falls back to the package's .env.defaults floor for %j",
    async (env) => {
      expect(await resolveErrorDetailLimit(env)).toBe(512);
    },
  );
});

describe('packageOwnedEnv', () => {
  const discovery = {
    env: {
      PLURNK_EXECS_WASM_MAX_MEMORY_MB: '8',
      PLURNK_EXECS_OTHER_SETTING: 'x',
      PLURNK_EXECS_WAT: '0',
      PLURNK_EXECS_ERROR_DETAIL_LIMIT: '512',
    },
    envDefaults: [
      { key: 'PLURNK_EXECS_ERROR_DETAIL_LIMIT', value: '512', owner: '@plurnk/plurnk-execs' },
      { key: 'PLURNK_EXECS_WASM_MAX_MEMORY_MB', value: '64', owner: '@plurnk/plurnk-execs-wasm' },
      { key: 'PLURNK_EXECS_WAT', value: '1', owner: '@plurnk/plurnk-execs-wasm' },
      { key: 'PLURNK_EXECS_OTHER_SETTING', value: 'y', owner: '@acme/other' },
    ],
  };

  it('gives a package its own keys with their effective values, and no policy keys', () => {
    expect(packageOwnedEnv(discovery, '@plurnk/plurnk-execs-wasm')).toEqual({ PLURNK_EXECS_WASM_MAX_MEMORY_MB: '8' });
    expect(packageOwnedEnv(discovery, '@acme/other')).toEqual({ PLURNK_EXECS_OTHER_SETTING: 'x' });
    expect(packageOwnedEnv(discovery, '@acme/none')).toEqual({});
  });

  it('puts owned keys into the thread env beside the filtered host env', () => {
    expect(
      workerBaseEnv({ PATH: '/bin', PLURNK_EXECS_WASM_MAX_MEMORY_MB: '999' }, 512, {
        PLURNK_EXECS_WASM_MAX_MEMORY_MB: '8',
      }),
    ).toEqual({
      PATH: '/bin',
      PLURNK_EXECS_WASM_MAX_MEMORY_MB: '8',
      PLURNK_EXECS_ERROR_DETAIL_LIMIT: '512',
    });
  });
});

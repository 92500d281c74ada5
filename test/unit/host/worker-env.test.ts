import { describe, expect, it } from 'vitest';
import { isCredentialName, resolveErrorDetailLimit, workerBaseEnv } from '../../../src/host/worker-env.js';

describe('isCredentialName', () => {
  it.each(['GITHUB_TOKEN', 'NPM_TOKEN', 'AWS_SECRET_ACCESS_KEY', 'AWS_ACCESS_KEY_ID', 'PGPASSWORD', 'DB_PASSWD', 'API_KEY', 'OPENAI_APIKEY', 'GOOGLE_APPLICATION_CREDENTIALS', 'SSH_AUTH_SOCK', 'my_secret', 'SESSION_COOKIE'])(
    'treats %s as a credential',
    (name) => expect(isCredentialName(name)).toBe(true),
  );

  it.each(['PATH', 'HOME', 'PWD', 'LANG', 'TERM', 'KEYBOARD_LAYOUT', 'NODE_ENV', 'SHELL', 'MONKEY'])('keeps %s', (name) => {
    expect(isCredentialName(name)).toBe(false);
  });
});

describe('workerBaseEnv', () => {
  it('drops PLURNK_* keys, credentials and undefined values, and sets the error-detail limit', () => {
    const env = workerBaseEnv(
      { PATH: '/bin', PLURNK_SECRET: 's', plurnk_lower: 'l', PLURNK_EXECS_ERROR_DETAIL_LIMIT: '9', GH_TOKEN: 't', UNSET: undefined, HOME: '/root' },
      512,
    );
    expect(env).toEqual({ PATH: '/bin', HOME: '/root', PLURNK_EXECS_ERROR_DETAIL_LIMIT: '512' });
  });
});

describe('resolveErrorDetailLimit', () => {
  it("takes discovery's value when it is valid", () => {
    expect(resolveErrorDetailLimit({ PLURNK_EXECS_ERROR_DETAIL_LIMIT: '64' })).toBe(64);
  });

  it.each([[{}], [{ PLURNK_EXECS_ERROR_DETAIL_LIMIT: 'lots' }]])("falls back to the package's .env.defaults floor for %j", (env) => {
    expect(resolveErrorDetailLimit(env)).toBe(512);
  });
});

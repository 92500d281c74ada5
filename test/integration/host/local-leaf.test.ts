import { cpSync, mkdirSync, mkdtempSync, rmSync, symlinkSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createHost } from '../../../src/host/index.js';
import { runCli } from '../../helpers/run-cli.js';

// `npm install ../my-leaf` links a leaf that lives outside the service's node_modules and has
// none of its own: it must import the host's own @plurnk/plurnk-execs. Both live in a scratch
// directory with no node_modules above it, so nothing else could supply the framework.
const LEAF_SOURCE = new URL('../../../fixtures/local-leaf/', import.meta.url);

describe('a local leaf installed by symlink', () => {
  let scratch: string;
  let service: string;
  let leaf: string;
  beforeAll(() => {
    scratch = mkdtempSync(join(tmpdir(), 'plurnk-local-leaf-'));
    leaf = join(scratch, 'my-leaf');
    service = join(scratch, 'service');
    cpSync(LEAF_SOURCE, leaf, { recursive: true });
    mkdirSync(join(service, 'node_modules'), { recursive: true });
    symlinkSync('../../my-leaf', join(service, 'node_modules', 'my-leaf'));
  });
  afterAll(() => rmSync(scratch, { recursive: true, force: true }));

  it('loads and runs in the host, importing the host’s own framework', async () => {
    const host = await createHost({ cwd: service, env: {}, tags: ['upper'] });
    try {
      expect(host.availability('upper')).toMatchObject({ available: true });
      const out = await host.exec({ runtime: 'upper', body: 'from a local leaf' });
      expect(out).toMatchObject({ outcome: 'ok', channels: { stdout: { text: 'FROM A LOCAL LEAF' } } });
    } finally {
      await host.close();
    }
  });

  it('passes plurnk-execs check run on its directory', async () => {
    const { code, stdout } = await runCli(['check', leaf], { cwd: scratch });
    expect(stdout).toMatch(/^upper .* clean$/m);
    expect(code).toBe(0);
  });
});

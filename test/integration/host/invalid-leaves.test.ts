import { realpathSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { createHost } from '../../../src/host/index.js';
import { fixture } from '../../helpers/discovery-fixtures.js';
import { REPO } from '../../helpers/run-cli.js';

// A service's boot beside third-party leaves it does not control: the common leaf (valid)
// next to a package with one bad declaration and one whose manifest declares no runtimes.
const COMMON = realpathSync(path.join(REPO, 'node_modules', '@plurnk', 'plurnk-execs-common'));
const BAD_DECLARATION = realpathSync(fixture('invalid', 'bad-declaration'));
const TYPO = realpathSync(fixture('invalid', 'neither-runtimes-nor-module'));
const packageDirs = [COMMON, BAD_DECLARATION, TYPO];

describe('invalid leaf packages beside valid ones', () => {
  it("boot with the valid leaves under onInvalidLeaf 'skip', listing each bad package with every error", async () => {
    // `fine` is declared by bad-declaration, so only the typo package (whose tags cannot be read) is excluded.
    const host = await createHost({ packageDirs, env: {}, tags: ['sh', 'fine'], onInvalidLeaf: 'skip' });
    try {
      expect((host.discovery.invalid ?? []).map(({ packageName, excluded }) => ({ packageName, excluded }))).toEqual([
        { packageName: 'neither-runtimes-nor-module', excluded: true },
        { packageName: 'bad-declaration', excluded: false },
      ]);
      const [typo, bad] = host.discovery.invalid ?? [];
      expect(typo!.errors.join('\n')).toMatch(/neither-runtimes-nor-module[\s\S]*plurnk\.runtimes is required/);
      expect(bad!.errors.join('\n')).toMatch(/broken[\s\S]*summary/);
      expect(host.discovery.registry.has('fine')).toBe(false);
      const out = await host.exec({ runtime: 'sh', body: 'echo served' });
      expect(out.channels.stdout?.text).toBe('served\n');
    } finally {
      await host.close();
    }
  });

  it('fail the boot by default, naming the package', async () => {
    await expect(createHost({ packageDirs, env: {} })).rejects.toMatchObject({
      code: 'invalid-declaration',
      message: expect.stringContaining('neither-runtimes-nor-module'),
    });
  });

  it('never fail the boot when policy excludes every tag the bad packages declare', async () => {
    const host = await createHost({ packageDirs, env: { PLURNK_EXECS_ONLY: 'sh' } });
    try {
      expect((host.discovery.invalid ?? []).map(({ packageName, excluded }) => ({ packageName, excluded }))).toEqual([
        { packageName: 'neither-runtimes-nor-module', excluded: true },
        { packageName: 'bad-declaration', excluded: true },
      ]);
      expect(host.availableRuntimes()).toEqual(['sh']);
    } finally {
      await host.close();
    }
  });

  it('serve only the tags option asks for, and say which package provides a missing default runtime', async () => {
    const host = await createHost({ packageDirs: [COMMON], env: {}, tags: ['sh', 'awk'] });
    try {
      expect([...host.discovery.registry.keys()].sort()).toEqual(['awk', 'sh']);
    } finally {
      await host.close();
    }
    await expect(createHost({ packageDirs: [COMMON], env: {}, defaultRuntime: 'jq' })).rejects.toMatchObject({
      code: 'boot-failed',
      message: expect.stringContaining(
        `"jq" is not registered: no installed leaf declares it (searched ${COMMON}). Fix: install @plurnk/plurnk-execs-jq`,
      ),
    });
  });
});

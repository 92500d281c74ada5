import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { describe, expect, it } from 'vitest';
import { execCommandModule } from '../../../src/cli/run-cli.js';
import { UsageError, isUsageError } from '../../../src/cli/parse-flags.js';
import { bundleFixture } from '../../helpers/bundle-fixture.js';
import { scratchDir } from '../../helpers/scratch.js';

/** A package root whose exec bundle was built at `builtAt` from one module last written at `inputAt` (seconds). */
function packageWith(builtAt: number, inputAt: number): { root: string; runCli: string } {
  const root = bundleFixture({
    bundle: 'dist/cli/bundle/exec-command.js',
    input: 'dist/cli/exec-command.js',
    builtAt,
    inputAt,
  });
  return { root, runCli: pathToFileURL(join(root, 'dist', 'cli', 'run-cli.js')).href };
}

describe('where `plurnk-execs exec` loads from', () => {
  it('is its bundle, run from dist/ while no module the bundle holds is newer', () => {
    const { root, runCli } = packageWith(2000, 1000);
    expect(execCommandModule(runCli, root)).toBe('./bundle/exec-command.js');
  });

  it('is its modules once one was rebuilt after the bundle, or where the bundle is missing', () => {
    const stale = packageWith(1000, 2000);
    expect(execCommandModule(stale.runCli, stale.root)).toBe('./exec-command.js');
    const bare = scratchDir('exec-bundle');
    expect(execCommandModule(pathToFileURL(join(bare, 'dist', 'cli', 'run-cli.js')).href, bare)).toBe(
      './exec-command.js',
    );
  });

  it('is its modules when the CLI runs from src/, as under the tests', () => {
    const { root } = packageWith(2000, 1000);
    expect(execCommandModule(pathToFileURL(join(root, 'src', 'cli', 'run-cli.ts')).href, root)).toBe(
      './exec-command.js',
    );
  });
});

describe('a usage error from the bundle’s copy of the flag parser', () => {
  it('is known by its brand, not by its class', () => {
    expect(isUsageError(new UsageError('exec: unknown flag --x'))).toBe(true);
    // What the bundle's own class makes: another class, the same brand.
    const fromBundle = Object.defineProperty(new Error('x'), Symbol.for('@plurnk/plurnk-execs.usage-error'), {
      value: true,
    });
    expect(isUsageError(fromBundle)).toBe(true);
    expect(isUsageError(new Error('x'))).toBe(false);
    expect(isUsageError('UsageError')).toBe(false);
  });
});

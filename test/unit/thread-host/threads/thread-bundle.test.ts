import { describe, expect, it } from 'vitest';
import { isBundleFresh } from '../../../../src/thread-host/threads/thread-bundle.js';
import { bundleFixture } from '../../../helpers/bundle-fixture.js';
import { scratchDir } from '../../../helpers/scratch.js';

/** A package root holding a bundle built at `builtAt` from one module last written at `inputAt` (seconds). */
function packageWith(options: { builtAt: number; inputAt: number; inputs?: string }): string {
  return bundleFixture({ bundle: 'dist/worker/thread-root.js', input: 'dist/index.js', ...options });
}

describe('whether threads start on the bundled start path', () => {
  it('is yes while no module the bundle holds is newer than it', () => {
    expect(isBundleFresh(packageWith({ builtAt: 2000, inputAt: 1000 }))).toBe(true);
  });

  it('is no once a module was rebuilt after the bundle (a `tsc -b` alone): threads must not run stale code', () => {
    expect(isBundleFresh(packageWith({ builtAt: 1000, inputAt: 2000 }))).toBe(false);
  });

  it('is no when the list of its modules is missing, unreadable or names a module that is gone', () => {
    expect(isBundleFresh(packageWith({ builtAt: 2000, inputAt: 1000, inputs: '{' }))).toBe(false);
    expect(isBundleFresh(packageWith({ builtAt: 2000, inputAt: 1000, inputs: '{"a":1}' }))).toBe(false);
    expect(isBundleFresh(packageWith({ builtAt: 2000, inputAt: 1000, inputs: '["dist/gone.js"]' }))).toBe(false);
    expect(isBundleFresh(scratchDir('thread-bundle'))).toBe(false);
  });
});

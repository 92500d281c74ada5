import { utimesSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { engineEntryPath } from '../../../src/engine/engine-command.js';
import { isBundleFresh } from '../../../src/runtime/bundle-freshness.js';
import { packageRoot } from '../../../src/runtime/package-root.js';
import { bundleFixture } from '../../helpers/bundle-fixture.js';

describe('whether a bundle may be loaded instead of its modules', () => {
  it('is yes for any bundle path while no module it holds is newer, no once one is', () => {
    const root = bundleFixture({
      bundle: 'dist/engine/bundle/engine-entry.js',
      input: 'dist/engine/engine-entry.js',
      builtAt: 2000,
      inputAt: 1000,
    });
    expect(isBundleFresh(root, 'dist/engine/bundle/engine-entry.js')).toBe(true);
    utimesSync(join(root, 'dist', 'engine', 'engine-entry.js'), 3000, 3000);
    expect(isBundleFresh(root, 'dist/engine/bundle/engine-entry.js')).toBe(false);
  });

  it('starts the engine on its bundle, which the build made (the tests’ global setup builds)', () => {
    expect(engineEntryPath()).toBe(join(packageRoot(), 'dist', 'engine', 'bundle', 'engine-entry.js'));
  });
});

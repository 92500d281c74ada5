import { mkdirSync, utimesSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { engineEntryPath } from '../../../src/engine/engine-command.js';
import { isBundleFresh } from '../../../src/runtime/bundle-freshness.js';
import { packageRoot } from '../../../src/runtime/package-root.js';
import { scratchDir } from '../../helpers/scratch.js';

describe('whether a bundle may be loaded instead of its modules', () => {
  it('is yes for any bundle path while no module it holds is newer, no once one is', () => {
    const root = scratchDir('bundle-freshness');
    mkdirSync(join(root, 'dist', 'engine', 'bundle'), { recursive: true });
    const input = join(root, 'dist', 'engine', 'engine-entry.js');
    const bundle = join(root, 'dist', 'engine', 'bundle', 'engine-entry.js');
    writeFileSync(input, 'export {}');
    writeFileSync(bundle, 'export {}');
    writeFileSync(
      join(root, 'dist', 'engine', 'bundle', 'engine-entry.inputs.json'),
      '["dist/engine/engine-entry.js"]',
    );
    utimesSync(input, 1000, 1000);
    utimesSync(bundle, 2000, 2000);
    expect(isBundleFresh(root, 'dist/engine/bundle/engine-entry.js')).toBe(true);
    utimesSync(input, 3000, 3000);
    expect(isBundleFresh(root, 'dist/engine/bundle/engine-entry.js')).toBe(false);
  });

  it('starts the engine on its bundle, which the build made (the tests’ global setup builds)', () => {
    expect(engineEntryPath()).toBe(join(packageRoot(), 'dist', 'engine', 'bundle', 'engine-entry.js'));
  });
});

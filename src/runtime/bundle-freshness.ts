import { readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';

/**
 * True when `bundle` (a path under the package root `root`, built by scripts/bundle-thread.js)
 * exists and no module it was built from is newer: the list of those modules lies beside it
 * (`<bundle without .js>.inputs.json`). A `tsc -b` without the bundling step leaves a bundle
 * older than its modules, and code must then load the modules themselves, never stale ones.
 */
export function isBundleFresh(root: string, bundle: string): boolean {
  const path = join(root, bundle);
  try {
    const built = statSync(path).mtimeMs;
    const inputs = JSON.parse(readFileSync(`${path.slice(0, -3)}.inputs.json`, 'utf8')) as unknown;
    return (
      Array.isArray(inputs) &&
      inputs.every((input) => typeof input === 'string' && statSync(join(root, input)).mtimeMs <= built)
    );
  } catch {
    return false;
  }
}

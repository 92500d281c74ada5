import type { Discovery } from '../contracts/registry.js';
import type { DiscoverOptions } from './discover.js';

/**
 * Discovers installed executor leaves (§executor-discovery): scans the `node_modules`
 * directories at and above `cwd` (nearest package wins by name; or exactly `packageDirs`) for
 * packages declaring exactly `plurnk.kind === "exec"`, withholds untrusted packages before any
 * of their code or files are read beyond package.json, assembles package `.env.defaults`
 * floors beneath `env`, validates every static or hook declaration (reading the ≤1.5 shape
 * the legacy way, with a notice), applies policy, then fails hard on collisions among the
 * tags policy kept, and reads each admitted tag's details. Contract violations throw
 * `PlurnkExecsError`; packages that are not leaves are skipped silently.
 */
export async function discover(options: DiscoverOptions = {}): Promise<Discovery> {
  // The package root's discover(): the scanner (a score of modules no executor thread runs)
  // loads on the first call, so a leaf's `import '@plurnk/plurnk-execs'` in every thread skips it.
  const scanner = await import('./discover.js');
  return scanner.discover(options);
}

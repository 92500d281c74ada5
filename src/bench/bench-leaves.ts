import { fileURLToPath } from 'node:url';
import { join } from 'node:path';
import type { Discovery, RegistryEntry } from '../contracts/registry.js';
import { discover } from '../discovery/discover.js';

/** Fake installed leaf packages the scenarios run (no-op, streaming, interpreters). */
export const BENCH_FIXTURES = fileURLToPath(new URL('../../fixtures/bench', import.meta.url));

/** The fields a thread needs to load a tag's executor. */
export type LeafEntry = { tag: string } & Pick<RegistryEntry, 'glyph' | 'entryUrl' | 'packageName'>;

/**
 * Discovers the benchmark fixture packages named (`exec-noop`, `exec-streams`,
 * `exec-interpreters`) under a clean environment, so no policy or trust gate of the caller's
 * shell removes them.
 */
export function discoverFixtures(...names: string[]): Promise<Discovery> {
  return discover({ packageDirs: names.map((name) => join(BENCH_FIXTURES, name)), env: {} });
}

/**
 * The leaves installed under `cwd` (the nearest node_modules), as the CLI's `probe` would
 * find them; when none are installed, the benchmark fixtures stand in so the scenario still
 * measures real threads over real leaves.
 */
export async function discoverLeaves(cwd: string): Promise<{ discovery: Discovery; source: string }> {
  const installed = await discover({ cwd });
  if (installed.registry.size > 0) return { discovery: installed, source: `installed leaves under ${cwd}` };
  const fixtures = await discoverFixtures('exec-noop', 'exec-streams', 'exec-interpreters');
  return { discovery: fixtures, source: 'no leaves installed: the benchmark fixtures (fixtures/bench) stand in' };
}

/** A registry's entries as the plain fields a child process or thread needs. */
export function leafEntries(discovery: Discovery): LeafEntry[] {
  return [...discovery.registry.values()].map(({ runtime, glyph, entryUrl, packageName }) => ({
    tag: runtime,
    glyph,
    entryUrl,
    packageName,
  }));
}

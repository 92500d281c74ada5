import { readFileSync, realpathSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import type { Discovery, RegistryEntry, RuntimeDecl } from '../../src/index.js';

/** Root of the fake installed packages the host tests load. */
export const HOST_FIXTURES = fileURLToPath(new URL('../../fixtures/host', import.meta.url));

/**
 * A Discovery built by hand from fixture packages under fixtures/host (discovery itself is
 * tested elsewhere): every runtime each package declares, in order, with the package's `.`
 * export as the executor module. `disabled` lists tags policy removed; `env` is discovery's
 * environment (the error-detail limit by default).
 */
export function fixtureDiscovery(
  packages: string[],
  extra: { disabled?: string[]; env?: NodeJS.ProcessEnv } = {},
): Discovery {
  const registry = new Map<string, RegistryEntry>();
  const packageAttributions = new Map<string, readonly string[]>();
  for (const name of packages) {
    const packageDir = realpathSync(join(HOST_FIXTURES, name));
    const manifest = JSON.parse(readFileSync(join(packageDir, 'package.json'), 'utf8')) as {
      name: string;
      exports: string;
      plurnk: { runtimes: RuntimeDecl[] };
    };
    const entryUrl = pathToFileURL(join(packageDir, manifest.exports)).href;
    for (const decl of manifest.plurnk.runtimes) {
      if (registry.has(decl.name)) throw new Error(`fixture tag ${decl.name} is declared twice`);
      registry.set(decl.name, {
        runtime: decl.name,
        glyph: decl.glyph ?? '',
        summary: decl.summary,
        invocation: decl.invocation,
        details: decl.details ?? '',
        packageName: manifest.name,
        packageDir,
        entryUrl,
      });
    }
  }
  return {
    registry,
    packageAttributions,
    searched: [],
    skipped: [],
    invalid: [],
    disabled: [...(extra.disabled ?? [])].sort(),
    env: extra.env ?? { PLURNK_EXECS_ERROR_DETAIL_LIMIT: '512' },
    envDefaults: [],
  };
}

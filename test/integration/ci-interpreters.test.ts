import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { INTERPRETERS, isInstalled, missingDetail, OPTIONAL_TAGS } from '../helpers/interpreters.js';
import { executorFor } from '../unit/leaves/leaf-harness.js';

// .ci/run installs every optional interpreter Debian packages, so CI runs their tests live, and
// tells each of its `npm test` runs which binaries it made sure of in
// PLURNK_EXECS_CI_INTERPRETERS. A test of an optional interpreter takes the "unavailable" branch
// where it is missing and passes, so without this check a CI machine that lost one would turn
// its live tests into unavailable ones in silence.
const REPO = join(import.meta.dirname, '..', '..');
const CI_RUN = readFileSync(join(REPO, '.ci', 'run'), 'utf8');
const README = readFileSync(join(REPO, 'README.md'), 'utf8');
const CI_INTERPRETERS = process.env.PLURNK_EXECS_CI_INTERPRETERS;

/** The `binary:package` pairs .ci/run installs with apt when the binary is not on PATH. */
function ciInstalls(): { binary: string; apt: string }[] {
  const list = /^for pair in ([^;\n]+); do$/m.exec(CI_RUN)?.[1];
  if (list === undefined) throw new Error('.ci/run has no `for pair in …; do` line listing what it installs');
  return list.split(/\s+/).map((pair) => {
    const [binary = '', apt = ''] = pair.split(':');
    return { binary, apt };
  });
}

/** The tags that need `binary`. */
function tagsOf(binary: string): string[] {
  return Object.keys(INTERPRETERS).filter((tag) => INTERPRETERS[tag]!.binaries.includes(binary));
}

describe('the interpreters CI installs', () => {
  it('are every optional tag but deno and bun, each with the Debian package its install hint names', () => {
    const installs = ciInstalls();
    for (const tag of OPTIONAL_TAGS.filter((tag) => tag !== 'deno' && tag !== 'bun')) {
      const { binaries, install } = INTERPRETERS[tag]!;
      expect(install, tag).toMatch(/^apt-get install \S+$/);
      expect(installs, tag).toContainEqual({ binary: binaries[0], apt: install.replace('apt-get install ', '') });
    }
  });

  it('are the ones the README says CI installs, and the README names no other', () => {
    const sentence = /^# the tests \(CI first installs (.+) with apt: see \.ci\/run\)$/m.exec(README)?.[1];
    const named = sentence?.split(/, | and /) ?? [];
    expect(named.sort()).toEqual(
      ciInstalls()
        .map(({ apt }) => apt)
        .sort(),
    );
  });

  // Only in .ci/run's runs of `npm test`: elsewhere a missing interpreter is allowed.
  it.runIf(CI_INTERPRETERS !== undefined)(
    'are all on PATH in CI, and each of their tags probes available there',
    async () => {
      const binaries = (CI_INTERPRETERS ?? '').split(/\s+/).filter((name) => name !== '');
      expect([...binaries].sort()).toEqual(
        ciInstalls()
          .map(({ binary }) => binary)
          .sort(),
      );
      const tags = binaries.flatMap(tagsOf);
      // Every missing one named at once, rather than the first.
      expect(tags.filter((tag) => !isInstalled(tag)).map(missingDetail)).toEqual([]);
      for (const tag of tags) expect(await (await executorFor(tag)).probe(), tag).toMatchObject({ available: true });
    },
  );
});

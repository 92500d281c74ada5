import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { binariesToHide, HIDE_VARIABLE } from '../helpers/hidden-path.js';
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

/** True when every binary `tag` may use is among `hidden`. */
function hides(hidden: readonly string[], tag: string): boolean {
  return INTERPRETERS[tag]!.binaries.every((binary) => hidden.includes(binary));
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

  // Every run checks the branch it takes. .ci/run's main runs of `npm test` must have every
  // interpreter it installs, its run with them hidden must have none, and elsewhere (a newcomer's
  // machine) a missing one is allowed: each tag's probe says what PATH says, with its install hint.
  it('probe as PATH says: available in CI, unavailable with their install hint where hidden or missing', async () => {
    const installed = ciInstalls().map(({ binary }) => binary);
    const hidden = binariesToHide(process.env[HIDE_VARIABLE]);
    if (CI_INTERPRETERS !== undefined) {
      const named = CI_INTERPRETERS.split(/\s+/).filter((name) => name !== '');
      expect([...named].sort()).toEqual([...installed].sort());
    }
    const tags = installed.flatMap(tagsOf);
    const missing = tags.filter((tag) => !isInstalled(tag));
    // Every missing one named at once, rather than the first.
    if (CI_INTERPRETERS !== undefined && hidden.length === 0) expect(missing.map(missingDetail)).toEqual([]);
    if (hidden.length > 0) expect(tags.filter((tag) => isInstalled(tag) && hides(hidden, tag))).toEqual([]);
    for (const tag of tags) {
      const probe = await (await executorFor(tag)).probe();
      if (missing.includes(tag)) expect(probe, tag).toEqual({ available: false, detail: missingDetail(tag) });
      else expect(probe, tag).toMatchObject({ available: true });
    }
  });
});

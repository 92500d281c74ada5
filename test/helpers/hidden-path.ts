import { existsSync, mkdtempSync, readdirSync, rmSync, symlinkSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { delimiter, isAbsolute, join } from 'node:path';
import * as v from 'valibot';
import { INTERPRETERS, isExecutable, OPTIONAL_TAGS } from './interpreters.js';

/** The variable that asks the test setup to hide interpreters: `optional`, or tags (`ruby,php`). */
export const HIDE_VARIABLE = 'PLURNK_EXECS_TEST_HIDE_INTERPRETERS';

const HideSchema = v.union([
  v.literal('optional'),
  v.pipe(
    v.string(),
    v.transform((list) => list.split(',').map((tag) => tag.trim())),
    v.array(v.picklist(Object.keys(INTERPRETERS))),
  ),
]);

/**
 * The binaries `value` (PLURNK_EXECS_TEST_HIDE_INTERPRETERS) asks to hide: every binary of the
 * optional tags for `optional`, else of each listed tag; none when unset or empty. Throws
 * naming the variable, the value and the tags it accepts for anything else.
 */
export function binariesToHide(value: string | undefined): string[] {
  if (value === undefined || value.trim() === '') return [];
  const parsed = v.safeParse(HideSchema, value.trim());
  if (!parsed.success)
    throw new Error(
      `@plurnk/plurnk-execs tests: ${HIDE_VARIABLE} must be "optional" or a comma-separated list of ` +
        `tags among ${Object.keys(INTERPRETERS).join(', ')}; received ${JSON.stringify(value)}`,
    );
  const tags = parsed.output === 'optional' ? OPTIONAL_TAGS : parsed.output;
  return [...new Set(tags.flatMap((tag) => INTERPRETERS[tag]!.binaries))];
}

/**
 * A PATH that finds everything `path` finds except some binaries: one fresh folder of symlinks
 * to the first executable of each name on `path`, minus `hidden`. The test setup uses it when
 * PLURNK_EXECS_TEST_HIDE_INTERPRETERS asks, so a machine with the optional interpreters can run
 * the tests as a fresh machine without them would (and .ci/run does, for the files that use them).
 * A folder cannot be dropped from PATH for one binary (ruby sits in /usr/bin beside sh), hence
 * the copy of links. The folder is removed when this process exits.
 */
export function pathWithout(hidden: readonly string[], path = process.env.PATH ?? ''): string {
  const shadow = mkdtempSync(join(tmpdir(), 'plurnk-execs-path-'));
  process.once('exit', () => rmSync(shadow, { recursive: true, force: true }));
  for (const dir of path.split(delimiter)) {
    if (dir === '' || !isAbsolute(dir)) continue;
    for (const name of entries(dir)) {
      const file = join(dir, name);
      if (hidden.includes(name) || existsSync(join(shadow, name)) || !isExecutable(file)) continue;
      symlinkSync(file, join(shadow, name));
    }
  }
  return shadow;
}

function entries(dir: string): string[] {
  try {
    return readdirSync(dir);
  } catch {
    return []; // A PATH entry that does not exist (or cannot be read) finds nothing anyway.
  }
}

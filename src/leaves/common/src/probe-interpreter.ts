import { runVersionCommand, type RuntimeAvailability } from '@plurnk/plurnk-execs';
import { findOnPath } from './find-on-path.js';
import type { Recipe } from './recipes.js';

/** How long a version line may be in a probe detail. */
const DETAIL_MAX = 120;

/**
 * Availability of one interpreter (§executor-probe): the first of the recipe's binaries on
 * `pathVariable`, found without a shell. Missing ⇒ unavailable with `<binary> not on PATH`
 * and how to install it. Found ⇒ its version line as the detail when a cheap version command
 * exists; a version command that fails means the binary is there but broken (unavailable).
 */
export async function probeInterpreter(
  recipe: Recipe,
  pathVariable: string | undefined,
  signal?: AbortSignal,
): Promise<RuntimeAvailability> {
  const found = findOnPath(recipe.binaries, pathVariable);
  if (found === undefined) {
    return { available: false, detail: `${recipe.binaries.join(' or ')} not on PATH (install: ${recipe.install})` };
  }
  if (recipe.version === undefined) return { available: true, detail: found.path };
  if (signal?.aborted) return { available: false, detail: `probe of ${found.path} was cancelled before it ran` };
  return readVersion(found.path, recipe.version, signal);
}

/** Runs the version command; an exit other than 0 means the binary is there but broken. */
async function readVersion(
  path: string,
  version: NonNullable<Recipe['version']>,
  signal?: AbortSignal,
): Promise<RuntimeAvailability> {
  const outcome = await runVersionCommand(path, {
    args: version.args,
    ...(version.stdin === undefined ? {} : { stdin: version.stdin }),
    ...(signal ? { signal } : {}),
  });
  if (outcome.kind === 'cancelled') return { available: false, detail: `probe of ${path} was cancelled` };
  if (outcome.kind === 'failed')
    return { available: false, detail: `${path} could not start: ${outcome.error.message}` };
  const line = outcome.line.slice(0, DETAIL_MAX);
  if (outcome.code === 0) return { available: true, detail: line || path };
  const end = outcome.killedBy ? `was killed by ${outcome.killedBy}` : `exited ${outcome.code}`;
  return { available: false, detail: `${[path, ...version.args].join(' ')} ${end}${line ? `: ${line}` : ''}` };
}

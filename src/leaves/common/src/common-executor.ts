import { PlurnkExecsError, SubprocessExecutor } from '@plurnk/plurnk-execs';
import type { ExecutorOptions, RuntimeAvailability, SpawnArgs } from '@plurnk/plurnk-execs';
import { findOnPath } from './find-on-path.js';
import { probeInterpreter } from './probe-interpreter.js';
import { RECIPES, type Recipe } from './recipes.js';

const PACKAGE = '@plurnk/plurnk-execs-common';

/**
 * One executor class for every interpreter tag of `@plurnk/plurnk-execs-common`. The
 * framework constructs it once per tag; the tag picks a recipe from {@link RECIPES}, and
 * `SubprocessExecutor` does the spawning, streaming, exit mapping and cancellation. Effect is
 * always `host` (the inherited default): an interpreter can do anything the host can.
 *
 * @throws PlurnkExecsError (`invalid-declaration`) when constructed for a tag the package does
 *   not claim: the declaration and the code disagree, which is a contract violation.
 */
export class CommonExecutor extends SubprocessExecutor {
  readonly #recipe: Recipe;

  constructor(options: ExecutorOptions) {
    super(options);
    const recipe = Object.hasOwn(RECIPES, options.runtime) ? RECIPES[options.runtime] : undefined;
    if (recipe === undefined) {
      throw new PlurnkExecsError(
        'invalid-declaration',
        `${PACKAGE} was constructed for runtime ${JSON.stringify(options.runtime)}, which it does not claim; it claims ${Object.keys(RECIPES).join(', ')}`,
      );
    }
    this.#recipe = recipe;
  }

  /** The binary that runs this tag: the first of the recipe's binaries on PATH, else the preferred one. */
  protected override get binary(): string {
    return findOnPath(this.#recipe.binaries, process.env.PATH)?.name ?? this.#recipe.binaries[0]!;
  }

  /** The tag's recipe: inline body, or the target as the program with the body as its stdin. */
  protected override spawnArgs(_runtime: string, body: string, target: string | null): SpawnArgs {
    const cmd = this.binary;
    if (target !== null && target !== '') {
      const args = this.#recipe.program(target);
      return body === '' ? { cmd, args, useShell: false } : { cmd, args, useShell: false, stdin: body };
    }
    const { args, stdin } = this.#recipe.inline(body);
    return stdin === undefined ? { cmd, args, useShell: false } : { cmd, args, useShell: false, stdin };
  }

  /** Finds the interpreter on PATH without a shell, then reads its version where that is cheap. */
  override probe(signal?: AbortSignal): Promise<RuntimeAvailability> {
    return probeInterpreter(this.#recipe, process.env.PATH, signal);
  }
}

/**
 * `@plurnk/plurnk-execs-common`: the interpreter tags sh, bash, node, python, python3, perl,
 * ruby, php, lua, deno, bun, tcl, bc and awk. The default export is the executor class the
 * framework constructs once per tag.
 */
import { CommonExecutor } from './common-executor.js';

export default CommonExecutor;
export { CommonExecutor } from './common-executor.js';
export { RECIPES, type Recipe } from './recipes.js';
export { findOnPath, type FoundBinary } from './find-on-path.js';
export { probeInterpreter } from './probe-interpreter.js';

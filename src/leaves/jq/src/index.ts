/**
 * `@plurnk/plurnk-execs-jq`: the `jq` tag, jq 1.8.2 compiled to WebAssembly. The default
 * export is the executor class the framework constructs for the tag.
 */
import { JqExecutor } from './jq-executor.js';

export default JqExecutor;
export { JqExecutor } from './jq-executor.js';
export { bindEnv, unbindMessage, type BoundProgram } from './env-binding.js';

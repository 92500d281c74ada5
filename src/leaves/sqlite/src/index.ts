/**
 * `@plurnk/plurnk-execs-sqlite`: the `sqlite` tag, one SQL statement per run through sql.js.
 * The default export is the executor class the framework constructs for the tag.
 */
import { SqliteExecutor } from './sqlite-executor.js';

export default SqliteExecutor;
export { SqliteExecutor } from './sqlite-executor.js';

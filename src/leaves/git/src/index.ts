/**
 * `@plurnk/plurnk-execs-git`: the `git` tag, the native git command line without a shell. The
 * default export is the executor class the framework constructs for the tag.
 */
import { GitExecutor } from './git-executor.js';

export default GitExecutor;
export { GitExecutor } from './git-executor.js';
export { findShellSyntax, readGitCommand, type GitCommand } from './git-command.js';
export { isRepositoryEnv, REPOSITORY_ENV, withoutRepositoryEnv } from './repository-env.js';

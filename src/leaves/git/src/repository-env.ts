/**
 * Variables that tell git which repository, index, object store or configuration to use.
 * A run must act on the repository its target (or working directory) names, not on one the
 * host process happens to be inside (a hook's GIT_DIR, a test harness's GIT_CONFIG_*), so
 * they never reach the child. This is the union of `git rev-parse --local-env-vars` (git
 * 2.39) and the other repository-identity variables git reads.
 */
export const REPOSITORY_ENV: readonly string[] = Object.freeze([
  'GIT_DIR',
  'GIT_WORK_TREE',
  'GIT_IMPLICIT_WORK_TREE',
  'GIT_INDEX_FILE',
  'GIT_INDEX_VERSION',
  'GIT_OBJECT_DIRECTORY',
  'GIT_ALTERNATE_OBJECT_DIRECTORIES',
  'GIT_COMMON_DIR',
  'GIT_NAMESPACE',
  'GIT_CEILING_DIRECTORIES',
  'GIT_DISCOVERY_ACROSS_FILESYSTEM',
  'GIT_GRAFT_FILE',
  'GIT_SHALLOW_FILE',
  'GIT_REPLACE_REF_BASE',
  'GIT_NO_REPLACE_OBJECTS',
  'GIT_PREFIX',
  'GIT_INTERNAL_SUPER_PREFIX',
  'GIT_QUARANTINE_PATH',
]);

/** Every variable whose name starts with this is configuration (GIT_CONFIG, _GLOBAL, _COUNT, _KEY_0, …). */
const CONFIG_PREFIX = 'GIT_CONFIG';

/** True for a variable that names the repository or its configuration. */
export function isRepositoryEnv(name: string): boolean {
  return name.startsWith(CONFIG_PREFIX) || REPOSITORY_ENV.includes(name);
}

/** A copy of `env` without the repository-identity variables; `env` itself is not changed. */
export function withoutRepositoryEnv(env: NodeJS.ProcessEnv): NodeJS.ProcessEnv {
  const kept: NodeJS.ProcessEnv = {};
  for (const [name, value] of Object.entries(env)) {
    if (!isRepositoryEnv(name)) kept[name] = value;
  }
  return kept;
}

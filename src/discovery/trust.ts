/** The variable that turns the plugin trust gate on (§executor-trust). */
export const PLURNK_PLUGINS_TRUSTED_ONLY = 'PLURNK_PLUGINS_TRUSTED_ONLY';

const FIRST_PARTY = '@plurnk/';

/**
 * The shared plugin trust predicate, decided before any package code is imported. With
 * `PLURNK_PLUGINS_TRUSTED_ONLY` unset, empty or `0` every installed package is trusted; any
 * other value trusts every `@plurnk/*` package plus the comma-separated package names it
 * lists (whitespace around names is ignored).
 */
export function isTrusted(packageName: string, env: NodeJS.ProcessEnv = process.env): boolean {
  const gate = env[PLURNK_PLUGINS_TRUSTED_ONLY]?.trim();
  if (gate === undefined || gate === '' || gate === '0') return true;
  if (packageName.startsWith(FIRST_PARTY)) return true;
  return gate.split(',').some((name) => name.trim() === packageName);
}

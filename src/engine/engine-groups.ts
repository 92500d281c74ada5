import type { ExecRegistry } from '../contracts/registry.js';

/** The packages one engine process runs, and their served tags. */
export interface EngineGroup {
  /** In discovery order of their first tag. */
  readonly packages: readonly string[];
  /** Every served tag of those packages, in discovery order. */
  readonly tags: readonly string[];
}

/**
 * Which engine each served package runs in: one engine per package, unless `shared` puts
 * packages the service trusts together into one (`HostOptions.engines.shared`, validated by its
 * schema: no package in two groups). The unit is the package, the unit of authorship and
 * trust: every thread of an engine can read and write every fd of it, its channel to the
 * service included, so packages that share an engine share everything of each other's runs.
 * A package with no served tag (left out by `tags` or policy, or not installed) gets no engine;
 * a group whose every package is such gets none either. Engines come in discovery order.
 */
export function groupEngines(registry: ExecRegistry, shared: readonly (readonly string[])[] = []): EngineGroup[] {
  const groupOf = new Map<string, number>();
  shared.forEach((group, index) => group.forEach((name) => groupOf.set(name, index)));
  const groups = new Map<string, { packages: string[]; tags: string[] }>();
  for (const [tag, entry] of registry) {
    const name = entry.packageName;
    const index = groupOf.get(name);
    const key = index === undefined ? `package:${name}` : `group:${index}`;
    let group = groups.get(key);
    if (group === undefined) groups.set(key, (group = { packages: [], tags: [] }));
    if (!group.packages.includes(name)) group.packages.push(name);
    group.tags.push(tag);
  }
  return [...groups.values()];
}

/** How an engine is named in what the service says about it: its packages. */
export function engineLabel(group: EngineGroup): string {
  return `the engine of ${group.packages.join(' + ')}`;
}

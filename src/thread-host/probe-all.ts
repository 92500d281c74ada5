import { probeTag, type ProbeOptions, type ProbeOutcome } from './probe-tag.js';
import { probeTogether, type PackageTag } from './probe-together.js';
import type { TagWorkers } from './threads/tag-workers.js';

export { probeTag, type ProbeOptions, type ProbeOutcome } from './probe-tag.js';

/**
 * Probes every tag concurrently, each under its own timeout (§executor-probe): the tags of one
 * leaf package in one thread (probe-together.ts), a package of one tag in its own (probe-tag.ts).
 * Packages never share a thread: each sees only its own env keys (worker-env.ts). Never rejects.
 */
export async function probeAll(
  tags: ReadonlyMap<string, TagWorkers>,
  options: ProbeOptions,
): Promise<Map<string, ProbeOutcome>> {
  const outcomes = new Map<string, ProbeOutcome>();
  const report = (tag: string, outcome: ProbeOutcome) => {
    outcomes.set(tag, outcome);
    try {
      options.onProbe?.(tag, outcome.verdict);
    } catch {
      // Progress reporting must never change a boot.
    }
  };
  await Promise.all(
    groupByPackage(tags).map(async (group) => {
      if (group.length > 1) return probeTogether(group, options, report);
      const [tag, workers] = group[0]!;
      report(tag, await probeTag(tag, workers, options));
    }),
  );
  // In the registry's order, as the boot's own map.
  return new Map([...tags.keys()].map((tag) => [tag, outcomes.get(tag)!]));
}

/**
 * The tags grouped by the package serving them (its name and entry module, hence its env), in
 * the registry's order; a tag whose package is not known is a group of its own.
 */
function groupByPackage(tags: ReadonlyMap<string, TagWorkers>): PackageTag[][] {
  const groups = new Map<string, PackageTag[]>();
  for (const [tag, workers] of tags) {
    const { packageName, boot } = workers.spec;
    const key = packageName === undefined ? `tag:${tag}` : `package:${packageName}\0${boot.entryUrl}`;
    const group = groups.get(key);
    if (group === undefined) groups.set(key, [[tag, workers]]);
    else group.push([tag, workers]);
  }
  return [...groups.values()];
}

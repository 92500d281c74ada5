import type { CrashBreaker } from '../model/crash-breaker.js';
import type { TierStats } from '../model/observe/host-stats.js';
import type { QueueWatch } from '../model/observe/queue-watch.js';
import type { TagWorkers } from './threads/tag-workers.js';

// What the thread tier adds to `host.stats()`: per tag, its threads by state, the runs waiting
// in the admission queue, and its crash-loop breaker. The front door counts the rest.

/** Every registered tag's threads, waiting runs and breaker (unavailable tags: no threads). */
export function threadTierStats(
  tags: ReadonlyMap<string, { readonly workers: TagWorkers }>,
  breaker: CrashBreaker,
  queue: QueueWatch,
): TierStats {
  const stats: TierStats = { tags: {}, engines: [] };
  for (const [tag, { workers }] of tags) {
    const { total, breaker: state } = breaker.inspect(tag);
    stats.tags[tag] = { threads: workers.counts(), waiting: queue.count(tag), crashes: total, breaker: state };
  }
  return stats;
}

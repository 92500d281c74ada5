import type { CrashBreaker } from '../model/crash-breaker.js';
import type { BreakerStats, TierTagStats } from '../model/observe/host-stats.js';
import { eventText, isObserved, publishEvent } from '../model/observe/publish-event.js';
import { QueueWatch } from '../model/observe/queue-watch.js';
import type { EngineProcess } from './engine-process.js';
import { FORWARDED_EVENTS, type EventFrame, type StatsFrame } from './observe-wire.js';

/** How long `host.stats()` waits for an engine's answer before it reports the engine's tags without it. */
export const ENGINE_STATS_WAIT_MS = 1000;
/** How often the service checks whether its subscribers to the engine's events changed. */
const SYNC_MS = 500;

/**
 * The service's side of observing its engine process: the engine's thread tier sees thread
 * retirements and its own breaker, which the service cannot. So the service tells the engine
 * which of those events someone here listens to (`observe`: none, while no one does — the
 * engine then publishes nothing), republishes what it forwards, and asks it for its tags'
 * stats. Every frame is checked against the tags the engine serves: one that names another
 * tag is forged, and kills the engine as corrupt. Also counts the runs waiting for an engine.
 */
export class EngineObserver {
  /** Runs waiting for an engine to be booted. */
  readonly waiting = new QueueWatch();
  private readonly asks = new Map<number, (tags: Record<string, TierTagStats> | undefined) => void>();
  private nextAsk = 0;
  /** What each engine was last told it should forward. */
  private readonly told = new WeakMap<EngineProcess, string>();
  private readonly timer: NodeJS.Timeout;

  constructor(
    /** The tags the engine serves: no frame of it may name another. */
    private readonly tags: ReadonlySet<string>,
    private readonly current: () => EngineProcess | undefined,
  ) {
    // No hook says when a subscriber comes: a subscriber that came meanwhile is told within SYNC_MS.
    this.timer = setInterval(() => this.sync(), SYNC_MS).unref();
  }

  /** Tells `engine` which of its events someone here listens to, when that changed since it was last told. */
  sync(engine = this.current()): void {
    if (engine === undefined) return;
    const events = FORWARDED_EVENTS.filter((name) => isObserved(name));
    const key = events.join(',');
    if (this.told.get(engine) === key) return;
    if (engine.send({ t: 'observe', events })) this.told.set(engine, key);
  }

  /** The engine's tags' thread-tier facts; undefined when it did not answer within {@link ENGINE_STATS_WAIT_MS}. */
  ask(engine: EngineProcess): Promise<Record<string, TierTagStats> | undefined> {
    const id = this.nextAsk++;
    return new Promise((resolve) => {
      const timer = setTimeout(() => answer(undefined), ENGINE_STATS_WAIT_MS);
      const answer = (tags: Record<string, TierTagStats> | undefined) => {
        clearTimeout(timer);
        this.asks.delete(id);
        resolve(tags);
      };
      this.asks.set(id, answer);
      if (!engine.send({ t: 'stats', id })) answer(undefined);
    });
  }

  /** A validated `stats` or `event` frame of `engine`. */
  receive(message: StatsFrame | EventFrame, engine: EngineProcess | undefined): void {
    if (message.t === 'stats') {
      const foreign = Object.keys(message.tags).find((tag) => !this.tags.has(tag));
      if (foreign !== undefined) return engine?.fail(`stats naming a tag it does not serve (${eventText(foreign)})`);
      const tags: Record<string, TierTagStats> = {};
      for (const [tag, stats] of Object.entries(message.tags)) tags[tag] = fromEngine(stats);
      return this.asks.get(message.id)?.(tags);
    }
    const { event } = message;
    if (!this.tags.has(event.payload.tag))
      return engine?.fail(`an event naming a tag it does not serve (${eventText(event.payload.tag)})`);
    switch (event.name) {
      case 'plurnk-execs:thread:retired': {
        const { detail } = event.payload;
        return publishEvent(event.name, () => ({
          ...event.payload,
          detail: detail === null ? null : eventText(detail),
        }));
      }
      case 'plurnk-execs:tag:degraded':
        return publishEvent(event.name, () => ({ ...event.payload, reason: eventText(event.payload.reason) }));
      case 'plurnk-execs:tag:restored':
        return publishEvent(event.name, () => ({ tag: event.payload.tag }));
    }
  }

  /** Ends the sync and every ask still waiting (unanswered). */
  close(): void {
    clearInterval(this.timer);
    for (const answer of [...this.asks.values()]) answer(undefined);
  }
}

/**
 * Every tag the engine serves, as `host.stats()` reports it: the engine's facts (none when it
 * did not answer) joined with the service's own — the runs waiting for an engine, and the
 * service's breaker, which charges a tag with the engine deaths it alone was in flight for.
 */
export function processTagStats(
  tags: Iterable<string>,
  engine: Record<string, TierTagStats> | undefined,
  breaker: CrashBreaker,
  waiting: QueueWatch,
): Record<string, TierTagStats> {
  const stats: Record<string, TierTagStats> = {};
  for (const tag of tags) {
    const inside = engine?.[tag];
    const service = breaker.inspect(tag);
    stats[tag] = {
      threads: inside?.threads ?? null,
      waiting: (inside?.waiting ?? 0) + waiting.count(tag),
      crashes: (inside?.crashes ?? 0) + service.total,
      breaker: inside === undefined ? service.breaker : worse(inside.breaker, service.breaker),
    };
  }
  return stats;
}

const RANK = { closed: 0, probation: 1, open: 2 } as const;

/** Of two breakers over one tag, the one that holds it more (open, then probation), with both windows' crashes. */
function worse(a: BreakerStats, b: BreakerStats): BreakerStats {
  const held = RANK[b.state] > RANK[a.state] ? b : a;
  return { ...held, crashes: a.crashes + b.crashes };
}

/** A tag's facts as the engine sent them, its text cut and its clock the service's own. */
function fromEngine(stats: TierTagStats): TierTagStats {
  const { breaker } = stats;
  return {
    ...stats,
    breaker: {
      ...breaker,
      lastCrash: breaker.lastCrash === null ? null : eventText(breaker.lastCrash),
      retryAt: breaker.retryInMs === null ? null : new Date(Date.now() + breaker.retryInMs).toISOString(),
    },
  };
}

import type { Violation, ViolationKind } from '../../contracts/violation.js';
import type { ExecOutcome } from '../../model/host-types.js';
import type { BreakerStats, HostStats, RunCounts, TagStats, TierStats } from '../../model/observe/host-stats.js';
import { LatencyHistogram } from '../../model/observe/latency-histogram.js';
import { OUTCOME_CLASSES, type OutcomeClass } from '../../model/outcome-class.js';

/** What the front door counts of one tag. */
interface TagBook {
  readonly byOutcome: Record<OutcomeClass, number>;
  inFlight: number;
  readonly latency: LatencyHistogram;
  readonly queueWait: LatencyHistogram;
  readonly violations: Partial<Record<ViolationKind, number>>;
}

/** A tag's breaker before anything was counted, or when its tier said nothing of it. */
const CLOSED: BreakerStats = { state: 'closed', crashes: 0, retryInMs: null, retryAt: null, lastCrash: null };

/**
 * What the front door counts of the EXECs that pass it, in either tier: runs by outcome class
 * and in flight (host-wide, and per registered tag), each tag's latency and queue wait in a
 * histogram, and the violations its outcomes recorded, by kind. A runtime nobody registered
 * counts host-wide only, so a caller's names cannot grow the book. `snapshot` joins what the
 * tier adds (threads, the breaker, waiting runs, engines) into `host.stats()`.
 */
export class RunBook {
  private readonly since = Date.now();
  private readonly all = { byOutcome: zeros(), inFlight: 0 };
  private readonly tags = new Map<string, TagBook>();

  constructor(registered: Iterable<string>) {
    for (const tag of registered)
      this.tags.set(tag, {
        byOutcome: zeros(),
        inFlight: 0,
        latency: new LatencyHistogram(),
        queueWait: new LatencyHistogram(),
        violations: {},
      });
  }

  /** An EXEC of `tag` passed the front door. */
  started(tag: string): void {
    this.all.inFlight += 1;
    const book = this.tags.get(tag);
    if (book !== undefined) book.inFlight += 1;
  }

  /** It settled with `outcome` after `durationMs`, having waited `queueMs` for its thread (undefined: it never queued). */
  settled(tag: string, outcome: ExecOutcome, durationMs: number, queueMs: number | undefined): void {
    this.all.inFlight -= 1;
    this.all.byOutcome[outcome.outcome] += 1;
    const book = this.tags.get(tag);
    if (book === undefined) return;
    book.inFlight -= 1;
    book.byOutcome[outcome.outcome] += 1;
    // A refused EXEC answers in microseconds: counted, but kept out of the run latency.
    if (outcome.outcome !== 'refused') book.latency.record(durationMs);
    if (queueMs !== undefined) book.queueWait.record(queueMs);
    countViolations(book.violations, outcome.violations);
  }

  /** It rejected (a bug of the host: a leaf's fault is an outcome): no longer in flight, no outcome counted. */
  rejected(tag: string): void {
    this.all.inFlight -= 1;
    const book = this.tags.get(tag);
    if (book !== undefined) book.inFlight -= 1;
  }

  /** The counts so far, joined with what the tier knows. */
  snapshot(tierName: HostStats['tier'], tier: TierStats): HostStats {
    const tags: Record<string, TagStats> = {};
    let waiting = 0;
    for (const [tag, book] of this.tags) {
      const known = tier.tags[tag];
      waiting += known?.waiting ?? 0;
      tags[tag] = {
        runs: { byOutcome: { ...book.byOutcome }, inFlight: book.inFlight, waiting: known?.waiting ?? 0 },
        latencyMs: book.latency.summary(),
        queueWaitMs: book.queueWait.summary(),
        threads: known?.threads ?? null,
        crashes: known?.crashes ?? 0,
        breaker: known?.breaker ?? { ...CLOSED },
        violations: { ...book.violations },
      };
    }
    const runs: RunCounts = { byOutcome: { ...this.all.byOutcome }, inFlight: this.all.inFlight, waiting };
    return {
      tier: tierName,
      since: new Date(this.since).toISOString(),
      uptimeMs: Date.now() - this.since,
      runs,
      tags,
      engines: tier.engines,
    };
  }
}

function zeros(): Record<OutcomeClass, number> {
  return Object.fromEntries(OUTCOME_CLASSES.map((outcome) => [outcome, 0])) as Record<OutcomeClass, number>;
}

function countViolations(into: Partial<Record<ViolationKind, number>>, violations: readonly Violation[]): void {
  for (const { kind } of violations) into[kind] = (into[kind] ?? 0) + 1;
}

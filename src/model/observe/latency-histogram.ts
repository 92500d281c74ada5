import { createHistogram, type RecordableHistogram } from 'node:perf_hooks';

/** Percentiles of one measured duration (ms), as `host.stats()` reports them; null until something was recorded. */
export interface LatencySummary {
  /** How many durations were recorded. */
  count: number;
  p50: number | null;
  p95: number | null;
  p99: number | null;
  max: number | null;
}

/**
 * Durations of one kind (a tag's run latency, its queue wait) in a `perf_hooks` histogram:
 * constant memory and a constant-time record however many runs, percentiles read in
 * microseconds (a histogram records integers of at least 1) and reported in ms. Made on the
 * first record, so a tag nobody runs holds none.
 */
export class LatencyHistogram {
  private histogram: RecordableHistogram | undefined;

  /** Records one duration in ms (a negative or non-finite one is taken as 0). */
  record(ms: number): void {
    this.histogram ??= createHistogram();
    const micros = Number.isFinite(ms) ? Math.round(ms * 1000) : 0;
    this.histogram.record(Math.max(1, micros));
  }

  summary(): LatencySummary {
    const histogram = this.histogram;
    if (histogram === undefined || histogram.count === 0)
      return { count: 0, p50: null, p95: null, p99: null, max: null };
    const ms = (micros: number) => Math.round(micros) / 1000;
    return {
      count: histogram.count,
      p50: ms(histogram.percentile(50)),
      p95: ms(histogram.percentile(95)),
      p99: ms(histogram.percentile(99)),
      max: ms(histogram.max),
    };
  }
}

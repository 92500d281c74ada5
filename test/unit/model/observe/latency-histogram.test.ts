import { describe, expect, it } from 'vitest';
import { LatencyHistogram } from '../../../../src/model/observe/latency-histogram.js';

describe('LatencyHistogram', () => {
  it('reports nothing but a zero count before the first record', () => {
    expect(new LatencyHistogram().summary()).toEqual({ count: 0, p50: null, p95: null, p99: null, max: null });
  });

  it('reports the percentiles of what it recorded, in ms, to the histogram’s precision', () => {
    const histogram = new LatencyHistogram();
    for (let ms = 1; ms <= 100; ms++) histogram.record(ms);
    const summary = histogram.summary();
    expect(summary.count).toBe(100);
    // Three significant figures: each figure within 0.1 % of the exact one.
    expect(summary.p50).toBeCloseTo(50, 0);
    expect(summary.p95).toBeCloseTo(95, 0);
    expect(summary.p99).toBeCloseTo(99, 0);
    expect(summary.max).toBeCloseTo(100, 0);
  });

  it('keeps sub-millisecond durations, and takes a zero, negative or non-finite one as the least it can hold', () => {
    const histogram = new LatencyHistogram();
    histogram.record(0.25);
    expect(histogram.summary().max).toBe(0.25);
    for (const ms of [0, -5, Number.NaN, Number.POSITIVE_INFINITY]) histogram.record(ms);
    expect(histogram.summary()).toMatchObject({ count: 5, p50: 0.001, max: 0.25 });
  });
});

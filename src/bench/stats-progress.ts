import type { Host } from '../model/host-types.js';
import type { HostStats } from '../model/observe/host-stats.js';

/** How often a long scenario reports its progress. */
export const PROGRESS_MS = 5000;

/**
 * Reports a long scenario's progress from its host's own snapshot (`host.stats()`): every
 * {@link PROGRESS_MS}, one line of how many of `total` runs settled, how many are in flight and
 * waiting, and each busy tag's p95. Returns the function that stops it.
 */
export function reportProgress(host: Host, label: string, total: number, progress: (line: string) => void): () => void {
  const timer = setInterval(() => {
    host.stats().then(
      (stats) => progress(describeProgress(label, stats, total)),
      () => {},
    );
  }, PROGRESS_MS);
  timer.unref();
  return () => clearInterval(timer);
}

/** `load (thread): 340/1000 runs (2 refused), 16 in flight, 3 waiting; p95 noop 3.1 ms, sh 12 ms`. */
export function describeProgress(label: string, stats: HostStats, total: number): string {
  const { byOutcome, inFlight, waiting } = stats.runs;
  const settled = Object.values(byOutcome).reduce((sum, count) => sum + count, 0);
  const others = Object.entries(byOutcome)
    .filter(([outcome, count]) => outcome !== 'ok' && count > 0)
    .map(([outcome, count]) => `${count} ${outcome}`);
  const latencies = Object.entries(stats.tags)
    .filter(([, tag]) => tag.latencyMs.p95 !== null)
    .map(([name, tag]) => `${name} ${formatMs(tag.latencyMs.p95!)}`);
  const head = `${label}: ${settled}/${total} runs${others.length > 0 ? ` (${others.join(', ')})` : ''}`;
  const p95 = latencies.length > 0 ? `; p95 ${latencies.join(', ')}` : '';
  return `${head}, ${inFlight} in flight, ${waiting} waiting${p95}`;
}

function formatMs(ms: number): string {
  return `${ms < 10 ? ms.toFixed(1) : Math.round(ms)} ms`;
}

/**
 * The benchmarks of issue 7 (`npm run bench`, and the CLI's `bench`): per-tag probe latency,
 * dispatch overhead, sink throughput, subprocess runs, recycling and memory, each against a
 * baseline measured in the same run. Internal to this package; not a public export.
 */
export { BENCH_SCENARIOS, ON_REQUEST, runBench, type BenchOptions, type BenchScenario } from './run-bench.js';
export { formatBenchTable } from './format-table.js';
export type { BenchReport, BenchRow, ScenarioReport, Stat, Target } from './bench-report.js';

import { afterEach, describe, expect, it, vi } from 'vitest';
import { summarize, target } from '../../../src/bench/bench-report.js';
import { BENCH_SCENARIOS, formatBenchTable, ON_REQUEST, runBench, type BenchReport } from '../../../src/bench/index.js';
import { isPlurnkExecsError } from '../../../src/index.js';

// The benchmarks themselves never run in the test suite; these cover what turns samples
// into the report and the runner's input checks.
describe('benchmark report', () => {
  it('summarizes samples as median, p95, min and max whatever their order', () => {
    expect(summarize([5, 1, 3, 2, 4])).toEqual({ median: 3, p95: 4.8, min: 1, max: 5, samples: 5 });
    expect(summarize([7])).toEqual({ median: 7, p95: 7, min: 7, max: 7, samples: 1 });
    expect(() => summarize([])).toThrow(/no samples/);
  });

  it.each([
    [1.9, '<=', 2, true],
    [2.1, '<=', 2, false],
    [0.8, '>=', 0.8, true],
    [0.79, '>=', 0.8, false],
  ] as const)('judges %s %s %s as met: %s', (figure, op, value, met) => {
    expect(target(figure, op, value).met).toBe(met);
  });

  it('renders a Markdown table with the machine, ratios, targets and notes', () => {
    const stat = summarize([10, 12, 14]);
    const report: BenchReport = {
      machine: { cores: 2, cpu: 'Test CPU', node: 'v20.20.2', platform: 'linux x64', loadBefore: 1, loadAfter: 2 },
      quick: true,
      isolation: 'process',
      startedAt: '2026-01-01T00:00:00.000Z',
      seconds: 3,
      scenarios: [
        {
          name: 'dispatch',
          rows: [
            {
              name: 'host.exec()',
              unit: 'µs',
              subject: stat,
              baseline: { name: 'bare port', stat: summarize([4, 5, 6]) },
              ratio: 2.4,
              target: target(2.4, '<=', 2),
            },
          ],
          notes: ['a note'],
        },
      ],
    };
    const table = formatBenchTable(report);
    expect(table).toContain('2 cores (Test CPU), Node v20.20.2');
    expect(table).toContain('; process tier; ');
    expect(table).toContain('--quick (not for the record)');
    expect(table).toContain(
      '| dispatch | host.exec() | 12.0 µs (13.8) | bare port | 5.00 µs (5.90) | 2.40× | ❌ <= 2× |',
    );
    expect(table).toContain('- dispatch: a note');
  });

  describe('a scenario that fails', () => {
    afterEach(() => vi.restoreAllMocks());

    it('is reported with why, and the scenarios after it still run', async () => {
      vi.spyOn(BENCH_SCENARIOS, 'flood').mockRejectedValue(new Error('flood: the no-op run failed: 500'));
      const load = vi
        .spyOn(BENCH_SCENARIOS, 'load')
        .mockResolvedValue({ name: 'load', rows: [{ name: 'r', unit: 'ms', subject: summarize([1]) }], notes: [] });
      let table = '';
      const report = await runBench({
        scenarios: ['flood', 'load'],
        write: (text) => (table = text),
        progress: () => {},
      });
      expect(load).toHaveBeenCalledOnce();
      expect(report.scenarios.map((scenario) => [scenario.name, scenario.failed])).toEqual([
        ['flood', 'flood: the no-op run failed: 500'],
        ['load', undefined],
      ]);
      expect(table).toContain('| flood | **failed**: flood: the no-op run failed: 500 |');
      expect(table).toContain('| load | r | 1.00 ms |');
    });
  });

  describe('which scenarios run', () => {
    afterEach(() => vi.restoreAllMocks());

    it('runs every scenario but those run on request when none is named, and those only when named', async () => {
      const called: string[] = [];
      for (const name of Object.keys(BENCH_SCENARIOS) as (keyof typeof BENCH_SCENARIOS)[])
        vi.spyOn(BENCH_SCENARIOS, name).mockImplementation(async () => {
          called.push(name);
          return { name, rows: [], notes: [] };
        });
      await runBench({ write: () => {}, progress: () => {} });
      expect(ON_REQUEST).toEqual(['orphans']);
      expect(called).toEqual(Object.keys(BENCH_SCENARIOS).filter((name) => name !== 'orphans'));
      called.length = 0;
      await runBench({ scenarios: ['orphans'], write: () => {}, progress: () => {} });
      expect(called).toEqual(['orphans']);
    });
  });

  it('rejects an unknown scenario before running anything', async () => {
    const error = await runBench({ scenarios: ['dispatch', 'warp'], write: () => {}, progress: () => {} }).catch(
      (e: unknown) => e,
    );
    expect(isPlurnkExecsError(error, 'invalid-configuration')).toBe(true);
    expect((error as Error).message).toMatch(
      /"warp".*choose from probe, dispatch, stream, subprocess, recycle, memory/,
    );
  });
});

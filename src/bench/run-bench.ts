import { cpus, loadavg } from 'node:os';
import { PlurnkExecsError } from '../contracts/errors.js';
import type { BenchContext, BenchReport, ScenarioReport } from './bench-report.js';
import { formatBenchTable } from './format-table.js';
import { benchBurst } from './scenarios/burst.js';
import { benchCli } from './scenarios/cli.js';
import { benchDispatch } from './scenarios/dispatch.js';
import { benchEngines } from './scenarios/engines.js';
import { benchFlood } from './scenarios/flood.js';
import { benchIsolation } from './scenarios/isolation.js';
import { benchLoad } from './scenarios/load.js';
import { benchMemory } from './scenarios/memory.js';
import { benchObserve } from './scenarios/observe.js';
import { benchOrphans } from './scenarios/orphans.js';
import { benchProbe } from './scenarios/probe.js';
import { benchRecycle } from './scenarios/recycle.js';
import { benchSandbox } from './scenarios/sandbox.js';
import { benchStream } from './scenarios/stream.js';
import { benchSubprocess } from './scenarios/subprocess.js';

/** Every scenario, in the order of issue 7 and of the report (then those of later issues). */
export const BENCH_SCENARIOS = {
  probe: benchProbe,
  dispatch: benchDispatch,
  stream: benchStream,
  subprocess: benchSubprocess,
  recycle: benchRecycle,
  memory: benchMemory,
  flood: benchFlood,
  isolation: benchIsolation,
  load: benchLoad,
  burst: benchBurst,
  orphans: benchOrphans,
  observe: benchObserve,
  sandbox: benchSandbox,
  engines: benchEngines,
  cli: benchCli,
} as const satisfies Record<string, (context: BenchContext) => Promise<ScenarioReport>>;

/** Scenarios run only when named: issue 31's orphan soak alone takes 18–25 minutes. */
export const ON_REQUEST: readonly BenchScenario[] = ['orphans'];

/** A scenario's name. */
export type BenchScenario = keyof typeof BENCH_SCENARIOS;

/** Options of {@link runBench}. */
export interface BenchOptions {
  /** Scenario names to run, in the canonical order whatever order given; default all. */
  scenarios?: string[];
  /** Write the report as JSON instead of the table. */
  json?: boolean;
  /** Fewer samples: a smoke run, not figures to record. */
  quick?: boolean;
  /** Where installed leaves are discovered. Default `process.cwd()`. */
  cwd?: string;
  /** The tier of the hosts the scenarios measure: `'process'` (default, as `createHost`'s) or `'thread'`. */
  isolation?: 'process' | 'thread';
  /** Where the table or JSON goes. Default stdout; pass `() => {}` to only get the report back. */
  write?: (text: string) => void;
  /** Where progress lines go. Default stderr. */
  progress?: (line: string) => void;
}

/**
 * Runs the benchmark scenarios of issue 7 with real threads and processes, each against a
 * baseline measured in the same run, writes the table (or JSON) and resolves with the report.
 * Numbers are for people: nothing here asserts a timing. Rejects with
 * `invalid-configuration` naming an unknown scenario before anything runs.
 */
export async function runBench(options: BenchOptions = {}): Promise<BenchReport> {
  const selected = selectScenarios(options.scenarios);
  const write = options.write ?? ((text: string) => void process.stdout.write(text));
  const progress = options.progress ?? ((line: string) => void process.stderr.write(`${line}\n`));
  const context: BenchContext = {
    quick: options.quick ?? false,
    cwd: options.cwd ?? process.cwd(),
    isolation: options.isolation ?? 'process',
    progress,
  };
  const startedAt = new Date();
  const loadBefore = loadavg()[0]!;
  const scenarios: ScenarioReport[] = [];
  for (const name of selected) {
    // One scenario that fails (a host that refused a run under load, say) is reported as such;
    // the others are still measured: a full run takes half an hour.
    try {
      scenarios.push(await BENCH_SCENARIOS[name](context));
    } catch (error) {
      const failed = error instanceof Error ? error.message : String(error);
      progress(`${name}: failed: ${failed}`);
      scenarios.push({ name, rows: [], notes: [], failed });
    }
  }
  const report: BenchReport = {
    machine: {
      cores: cpus().length,
      cpu: cpus()[0]?.model.trim() ?? 'unknown',
      node: process.version,
      platform: `${process.platform} ${process.arch}`,
      loadBefore,
      loadAfter: loadavg()[0]!,
    },
    quick: context.quick,
    isolation: context.isolation,
    startedAt: startedAt.toISOString(),
    seconds: (Date.now() - startedAt.getTime()) / 1000,
    scenarios,
  };
  write(options.json ? `${JSON.stringify(report, null, 2)}\n` : `${formatBenchTable(report)}\n`);
  return report;
}

function selectScenarios(names: string[] | undefined): BenchScenario[] {
  const all = Object.keys(BENCH_SCENARIOS) as BenchScenario[];
  if (names === undefined || names.length === 0) return all.filter((name) => !ON_REQUEST.includes(name));
  const unknown = names.filter((name) => !Object.hasOwn(BENCH_SCENARIOS, name));
  if (unknown.length > 0) {
    throw new PlurnkExecsError(
      'invalid-configuration',
      `unknown benchmark scenario ${unknown.map((name) => JSON.stringify(name)).join(', ')}: choose from ${all.join(', ')}`,
    );
  }
  return all.filter((name) => names.includes(name));
}

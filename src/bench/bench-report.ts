/** Median, p95 and spread of one measured quantity. */
export interface Stat {
  readonly median: number;
  readonly p95: number;
  readonly min: number;
  readonly max: number;
  readonly samples: number;
}

/** What a ratio must be to meet the target, and whether it did. */
export interface Target {
  /** What the target bounds: the row's ratio, or the subject's median itself (e.g. MB per thread). */
  readonly on: 'ratio' | 'subject';
  readonly op: '<=' | '>=';
  readonly value: number;
  readonly met: boolean;
}

/** One line of a scenario: a subject, usually beside the baseline measured in the same run. */
export interface BenchRow {
  readonly name: string;
  /** Unit of `subject` and `baseline`: 'ms', 'µs', 'MB/s', 'MB', 'runs/s'. */
  readonly unit: string;
  readonly subject: Stat;
  readonly baseline?: { readonly name: string; readonly stat: Stat };
  /** The row's figure of merit (usually subject median ÷ baseline median; see `ratioOf`). */
  readonly ratio?: number;
  /** How `ratio` is computed, when it is not subject ÷ baseline. */
  readonly ratioOf?: string;
  readonly target?: Target;
}

/** One scenario's rows and what the reader should know about them. */
export interface ScenarioReport {
  readonly name: string;
  readonly rows: BenchRow[];
  readonly notes: string[];
  /** Why the scenario stopped before its rows were measured (it threw): itself a finding. */
  readonly failed?: string;
}

/** Everything `runBench` measured, with the machine it ran on. */
export interface BenchReport {
  readonly machine: {
    readonly cores: number;
    readonly cpu: string;
    readonly node: string;
    readonly platform: string;
    /** 1-minute load average when the run started and ended: the machine is shared. */
    readonly loadBefore: number;
    readonly loadAfter: number;
  };
  readonly quick: boolean;
  /** The tier of the hosts the scenarios measured (docs/isolation.md). */
  readonly isolation: 'process' | 'thread';
  readonly startedAt: string;
  readonly seconds: number;
  readonly scenarios: ScenarioReport[];
}

/** Summarizes raw samples. Throws on an empty list: a scenario that measured nothing is a bug. */
export function summarize(samples: readonly number[]): Stat {
  if (samples.length === 0) throw new Error('summarize: no samples');
  const sorted = [...samples].sort((a, b) => a - b);
  return {
    median: quantile(sorted, 0.5),
    p95: quantile(sorted, 0.95),
    min: sorted[0]!,
    max: sorted.at(-1)!,
    samples: sorted.length,
  };
}

/** A stat of one value (a single whole-run figure such as runs/s over a batch). */
export function single(value: number): Stat {
  return summarize([value]);
}

/** Judges `figure` (the row's ratio unless `on` says the subject median) against a target. */
export function target(figure: number, op: Target['op'], value: number, on: Target['on'] = 'ratio'): Target {
  return { on, op, value, met: op === '<=' ? figure <= value : figure >= value };
}

/** Linear-interpolated quantile of sorted values. */
function quantile(sorted: readonly number[], q: number): number {
  const at = (sorted.length - 1) * q;
  const lo = Math.floor(at);
  const hi = Math.ceil(at);
  return sorted[lo]! + (sorted[hi]! - sorted[lo]!) * (at - lo);
}

/** What every scenario is given. */
export interface BenchContext {
  /** Fewer samples: a smoke run, not figures to record. */
  readonly quick: boolean;
  /** Where installed leaves are discovered (the probe and subprocess scenarios). */
  readonly cwd: string;
  /** The tier of the hosts the scenarios measure (`isolation` compares both whatever this says). */
  readonly isolation: 'process' | 'thread';
  /** A progress line for stderr. */
  progress(line: string): void;
}

/**
 * The shape of `plurnk-execs check --json` (`plurnk-execs/check@2`): what each tag's verdict is
 * and why, judged from structured facts, and what each run of its example did, as the host and
 * check measured it. docs/cli.md documents it, and how check@1 maps onto it.
 */
import type { ProbeFault } from '../model/fault-kinds.js';
import type { Isolation } from '../model/host-types.js';
import type { OutcomeClass } from '../model/outcome-class.js';
import type { ViolationKind } from '../contracts/violation.js';

/** A check's outcome: `skip` when it could not be judged here (say why in `detail`). */
export type Verdict = 'pass' | 'fail' | 'skip';

/**
 * A tag's verdict: `fault`, the host had to step in for the leaf (not clean); `problem`, its
 * example ended in a Problem the leaf itself answered, most likely for want of what the
 * example needs here (a warning: clean unless `strict`); `not-run`, nothing could run here (an
 * unavailable binary, a missing target, no executable example); `ok`.
 */
export type TagVerdict = 'ok' | 'problem' | 'not-run' | 'fault';

/** The verdicts of a tag, in report order. */
export const TAG_VERDICTS = ['ok', 'problem', 'not-run', 'fault'] as const satisfies readonly TagVerdict[];

/** The example's own verdict: `problem` when it ended in a Problem of the leaf's own. */
export type ExampleVerdict = Verdict | 'problem';

/** One judged item. */
export interface CheckItem {
  verdict: Verdict;
  /** Why it failed or was skipped; null on a plain pass. */
  detail: string | null;
}

/** The contract checks run against a tag's declared example. */
export interface ContractChecks {
  /** Writes or state changes on a channel the executor did not declare. */
  undeclaredChannels: CheckItem;
  /** Output through `console.*`, stdout or stderr instead of a declared channel. */
  console: CheckItem;
  /** An aborted run settled within grace (the host did not have to terminate it). */
  signal: CheckItem;
  /** No process outlived its run, and none was left running when `run()` resolved. */
  processes: CheckItem;
  /** A second run in the same thread answers like a first run in a fresh one. */
  state: CheckItem;
  /** `run()` resolved a valid result (it did not throw or resolve something else). */
  result: CheckItem;
  /** Every other contract violation the host refused (mutated ExecArgs, worker threads, illegal transitions, bad notices…). */
  violations: CheckItem;
}

/** Which run of the example: its first, a second in the same thread, a first in a fresh thread, one aborted once it showed life. */
export type RunName = 'first' | 'again' | 'fresh' | 'aborted';

/** Files created, changed or removed under a run's cwd (a snapshot before and after the run). */
export interface FileChanges {
  created: number;
  changed: number;
  removed: number;
  /** The first few, relative to the cwd: `+` created, `~` changed, `-` removed (`/` ends a directory). */
  paths: string[];
}

/** What one run of the example did, measured by the host and by check, never reported by the leaf. */
export interface RunFigures {
  run: RunName;
  outcome: OutcomeClass;
  status: number;
  /** Wall time of the run as check saw it (`host.exec` called to resolved), ms. */
  wallMs: number;
  memory: {
    /** The largest heap plus external memory the thread reported in a heartbeat; null when the run ended before its first. */
    threadPeakBytes: number | null;
    /**
     * The largest sum of the run's processes' peak resident sets (`VmHWM`), sampled every few
     * ms from /proc; null when no process of the run was seen (none started, or none lived long enough).
     */
    childrenPeakBytes: number | null;
  };
  processes: {
    /** Children the run's thread started (the host's count); null when the host could not tell. */
    started: number | null;
    /** Still running when the run ended: killed by the host, or by check (`escaped`). */
    left: number;
    /** Of those, found only by check's marker after the host's reap: out of the host's reach. */
    escaped: number;
  };
  /** What changed under the run's cwd; null when the cwd was too large to snapshot. */
  files: FileChanges | null;
  /** Bytes the leaf printed through `console.*`, stdout or stderr. */
  consoleBytes: number;
  /** Writes and notices the embedding sinks received, and their UTF-8 bytes (the host's own closing state changes are not counted). */
  sinks: { messages: number; bytes: number };
  /** Contract violations the host refused, counted by kind. */
  violations: Partial<Record<ViolationKind, number>>;
  /**
   * What the engine's sandbox refused during the run, as its cgroup counted it (the host's
   * `containment.sandbox`): forks and threads past `limits.enginePids`, processes the kernel's OOM
   * killer ended at `limits.engineMemoryMb`. Null in the thread tier and where the engine has no
   * cgroup. A refused write (EROFS), mount or connect is the leaf's to see, not the host's: the
   * report's `isolation` says which layers held.
   */
  sandbox: { forksRefused: number; oomKills: number } | null;
}

/** Everything `check` found about one tag. */
export interface TagCheck {
  tag: string;
  verdict: TagVerdict;
  /** The warning of a `problem` verdict: the status, the Problem type and what the example seems to need; else null. */
  warning: string | null;
  manifest: { verdict: Verdict; errors: string[] };
  probe: {
    verdict: Verdict;
    available: boolean | null;
    /** The host's fault kind when the probe failed through the leaf's fault (`PROBE_FAULTS`), else null. */
    fault: ProbeFault | null;
    detail: string | null;
    probeMs: number | null;
  };
  example: {
    verdict: ExampleVerdict;
    body: string | null;
    target: string | null;
    status: number | null;
    /** The Problem type of the example's first run, when it failed. */
    problem: string | null;
    detail: string | null;
    ms: number | null;
    /** How the example's first run ended (`out.outcome`): what the verdict is judged from. */
    outcome: OutcomeClass | null;
    /** What the example seems to need that the run's cwd lacks (`a git repository`, `a file notes.txt`), when it failed. */
    needs: string | null;
  };
  checks: ContractChecks;
  /** What each run of the example did, in the order they ran (empty when none ran). */
  runs: RunFigures[];
}

/** `plurnk-execs check --json` for one package: stable for CI (new fields may be added; none is removed or renamed within a schema version). */
export interface CheckReport {
  schema: 'plurnk-execs/check@2';
  package: { dir: string; name: string | null };
  /** True only when discovery passed, at least one tag was declared, and no tag is a `fault` (nor, under `strict`, a `problem`). */
  clean: boolean;
  /** Whether a `problem` verdict made the package not clean. */
  strict: boolean;
  /** The containment the examples ran under (`host.isolation()`); null when discovery failed and nothing ran. */
  isolation: Isolation | null;
  /** `notices`: what discovery read on the author's behalf (a manifest in the ≤1.5 shape); not a failure. */
  discovery: { verdict: Verdict; error: string | null; disabledByDefault: string[]; notices: string[] };
  tags: TagCheck[];
}

/** `plurnk-execs check <dir> --json` for a directory of several leaf packages (or a node_modules). */
export interface CheckSetReport {
  schema: 'plurnk-execs/check-set@2';
  dir: string;
  /** True only when every package is clean. */
  clean: boolean;
  strict: boolean;
  /** One report per leaf package found, in name order. */
  packages: CheckReport[];
}

/** The names of {@link ContractChecks}, in report order. */
export const CONTRACT_CHECKS = [
  'undeclaredChannels',
  'console',
  'signal',
  'processes',
  'state',
  'result',
  'violations',
] as const;

/** An item that passed. */
export function pass(): CheckItem {
  return { verdict: 'pass', detail: null };
}

/** An item that failed, and why. */
export function fail(detail: string): CheckItem {
  return { verdict: 'fail', detail };
}

/** An item that could not be judged, and why. */
export function skip(detail: string): CheckItem {
  return { verdict: 'skip', detail };
}

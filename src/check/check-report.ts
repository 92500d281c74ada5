import type { ProbeFault } from '../model/fault-kinds.js';
import type { Isolation } from '../model/host-types.js';

/** A check's outcome: `skip` when it could not be judged here (say why in `detail`). */
export type Verdict = 'pass' | 'fail' | 'skip';

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

/** Everything `check` found about one tag. */
export interface TagCheck {
  tag: string;
  /** `fail` when any part failed; `skip` when nothing could run here (an unavailable binary); else `pass`. */
  verdict: Verdict;
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
    verdict: Verdict;
    body: string | null;
    target: string | null;
    status: number | null;
    problem: string | null;
    detail: string | null;
    ms: number | null;
  };
  checks: ContractChecks;
}

/** `plurnk-execs check --json`: stable for CI (new fields may be added; none is removed or renamed within a schema version). */
export interface CheckReport {
  schema: 'plurnk-execs/check@1';
  package: { dir: string; name: string | null };
  /** True only when discovery passed, at least one tag was declared, and no tag failed. */
  clean: boolean;
  /** The containment the examples ran under (`host.isolation()`); null when discovery failed and nothing ran. */
  isolation: Isolation | null;
  /** `notices`: what discovery read on the author's behalf (a manifest in the ≤1.5 shape); not a failure. */
  discovery: { verdict: Verdict; error: string | null; disabledByDefault: string[]; notices: string[] };
  tags: TagCheck[];
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

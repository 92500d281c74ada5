/**
 * The contract checks of one tag, each judged from the structured facts of its example's runs —
 * violation kinds, `containment` (console, processes, how the host ended a run, what the engine's sandbox refused), the outcome
 * class — never from the wording of a message meant for people.
 */
import type { Violation, ViolationKind } from '../contracts/violation.js';
import type { RunEndReason } from '../model/fault-kinds.js';
import type { ExecOutcome } from '../model/host-types.js';
import { fail, pass, skip, type CheckItem, type ContractChecks } from './check-report.js';
import type { MeasuredRun } from './measure-run.js';

/** Violation kinds with a check of their own (`undeclaredChannels`, `console`): the `violations` check leaves them out. */
const JUDGED_APART: ReadonlySet<ViolationKind> = new Set(['undeclared-channel', 'console-output']);

/** Run-end reasons that say a limit ended the aborted run before it could show whether it honours its signal. */
const LIMIT_ENDS: ReadonlySet<RunEndReason> = new Set(['heap-limit', 'external-limit', 'rss-limit', 'output-limit']);

/** A leaf fault with these ends (or none: the leaf's reply itself) is `run()` not resolving a valid result. */
const RESULT_ENDS: ReadonlySet<RunEndReason> = new Set(['thread-died', 'escaped-error']);

/** The runs a tag's checks are judged from: `again` and `fresh` only when the example answered (ok or a Problem of its own). */
export interface JudgedRuns {
  readonly first: MeasuredRun;
  readonly again: MeasuredRun | undefined;
  readonly fresh: MeasuredRun | undefined;
  readonly aborted: MeasuredRun;
}

/** Every contract check of a tag whose example ran. */
export function judgeContract(runs: JudgedRuns, graceMs: number): ContractChecks {
  const { outcome } = runs.first;
  return {
    undeclaredChannels: judgeViolations(outcome.violations.filter((v) => v.kind === 'undeclared-channel')),
    console: judgeConsole(outcome),
    signal: judgeSignal(runs.aborted.outcome, graceMs),
    processes: judgeProcesses([runs.first, runs.again, runs.fresh, runs.aborted].filter((run) => run !== undefined)),
    state:
      runs.again === undefined || runs.fresh === undefined
        ? skip('the example ended in a fault, not an answer of the leaf’s own, so there is no answer to compare')
        : judgeState([runs.first.outcome, runs.fresh.outcome], runs.again.outcome),
    result: judgeResult(outcome),
    violations: judgeViolations(outcome.violations.filter((v) => !JUDGED_APART.has(v.kind))),
  };
}

/** Every contract check skipped for the same reason. */
export function allSkipped(detail: string): ContractChecks {
  const item = () => skip(detail);
  return {
    undeclaredChannels: item(),
    console: item(),
    signal: item(),
    processes: item(),
    state: item(),
    result: item(),
    violations: item(),
  };
}

function judgeViolations(violations: readonly Violation[]): CheckItem {
  return violations.length === 0 ? pass() : fail(violations.map((v) => v.detail).join('; '));
}

function judgeConsole(outcome: ExecOutcome): CheckItem {
  const printed = outcome.containment?.console;
  if (!printed) return pass();
  return fail(
    `printed ${printed.bytes} bytes through console.*, stdout or stderr instead of a declared channel: ${JSON.stringify(printed.text.slice(0, 80))}`,
  );
}

function judgeSignal(outcome: ExecOutcome, graceMs: number): CheckItem {
  const end = outcome.containment?.forcedEnd;
  if (end === null || end === undefined) return pass();
  if (end.terminated && (end.reason === 'cancelled' || end.reason === 'timeout'))
    return fail(`an aborted run did not settle within ${graceMs}ms; the host terminated its thread`);
  if (end.reason === 'unresponsive') return fail('an aborted run stopped answering; the host terminated its thread');
  if (LIMIT_ENDS.has(end.reason))
    return skip(
      `the aborted run broke a limit (${end.reason}) before it could settle: ${outcome.result.problem?.detail ?? ''}`,
    );
  return pass();
}

function judgeProcesses(runs: readonly MeasuredRun[]): CheckItem {
  // What the engine's cgroup refused is the most telling: a flood or a bomb, not a straggler.
  const refused = (key: 'forksRefused' | 'oomKills') =>
    runs.reduce((sum, run) => sum + (run.figures.sandbox?.[key] ?? 0), 0);
  if (refused('forksRefused') > 0)
    return fail(
      `its processes hit the engine's pids bound (limits.enginePids): ${refused('forksRefused')} fork(s) refused`,
    );
  if (refused('oomKills') > 0)
    return fail(
      `the kernel's OOM killer ended ${refused('oomKills')} of its processes at the engine's memory bound (limits.engineMemoryMb)`,
    );
  const outlived = runs.flatMap((run) => run.outlived);
  if (outlived.length > 0)
    return fail(
      `${outlived.length} process(es) outlived their runs where the host could not reach them (unreported process groups): ${outlived.join(', ')}; check killed them`,
    );
  const reaped = runs[0]!.outcome.containment?.reapedProcesses ?? 0;
  if (reaped > 0)
    return fail(`run() resolved while ${reaped} of its processes were still running; the host killed them`);
  return pass();
}

/** `fresh`: first runs in their threads; `again`: a second run in the first one's thread. */
function judgeState(fresh: ExecOutcome[], again: ExecOutcome): CheckItem {
  const baseline = fingerprint(fresh[0]!);
  if (fresh.some((outcome) => fingerprint(outcome) !== baseline))
    return skip('two runs in fresh threads answered differently, so retained state cannot be told from nondeterminism');
  if (fingerprint(again) === baseline) return pass();
  return fail(
    `a second run in the same thread answered ${fingerprint(again)} where a fresh thread answers ${baseline}: state retained across runs`,
  );
}

/**
 * `run()` threw, rejected, or resolved something that is no valid result: a leaf fault that the
 * leaf's own reply decided (the host did not end the run), or whose thread died or had an error
 * escape under it. A limit the host enforced, or a deadline, is judged by the example and signal checks.
 */
function judgeResult(outcome: ExecOutcome): CheckItem {
  if (outcome.effect === null)
    return skip(`run() was never called: ${outcome.result.problem?.detail ?? 'the EXEC was refused'}`);
  const end = outcome.containment?.forcedEnd ?? null;
  if (outcome.outcome === 'leaf-fault' && (end === null || RESULT_ENDS.has(end.reason)))
    return fail(outcome.result.problem?.detail ?? `status ${outcome.result.status}`);
  return pass();
}

/** What a run answered, as one comparable string: status, Problem type and every channel's text. */
function fingerprint(outcome: ExecOutcome): string {
  const channels = Object.fromEntries(Object.entries(outcome.channels).map(([name, channel]) => [name, channel.text]));
  return JSON.stringify({ status: outcome.result.status, problem: outcome.result.problem?.type ?? null, channels });
}

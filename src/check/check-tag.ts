import { randomUUID } from 'node:crypto';
import { existsSync } from 'node:fs';
import { resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { RegistryEntry } from '../contracts/registry.js';
import type { Violation, ViolationKind } from '../contracts/violation.js';
import { fail, pass, skip, type CheckItem, type ContractChecks, type TagCheck } from './check-report.js';
import type { RunEndReason } from '../model/fault-kinds.js';
import type { ExecOutcome, Host } from '../model/host-types.js';
import { findMarkedProcesses, killProcesses } from '../runtime/marked-processes.js';

/** The variable every checked run carries in its environment, so its processes can be found. */
export const CHECK_MARKER = 'PLURNK_EXECS_CHECK_RUN';

/** How one tag is exercised. */
export interface TagProbeContext {
  /** A host whose threads serve two runs each, the thread that has run most first (`recycle: { afterRuns: 2 }`). */
  readonly host: Host;
  /** The environment of every run (the marker is added per run). */
  readonly env: Record<string, string>;
  /** Working directory of every run. */
  readonly cwd: string;
  readonly timeoutMs: number;
  readonly graceMs: number;
}

/** Violation kinds with a check of their own (`undeclaredChannels`, `console`): the `violations` check leaves them out. */
const JUDGED_APART: ReadonlySet<ViolationKind> = new Set(['undeclared-channel', 'console-output']);

type Example = { body: string; target: string | null };
type Marked = { outcome: ExecOutcome; ms: number; outlived: string[] };

/**
 * Runs a tag's declared example through the host and judges it: the example itself, then the
 * contract checks. Threads serve two runs each, so the second run lands in the first one's
 * thread and the third in a fresh one: two first runs say whether the output is
 * deterministic, and the second run then says whether state survived a run. A last run is
 * aborted once it shows life, to see whether the leaf honours its signal within grace.
 */
export async function checkExample(
  entry: RegistryEntry,
  context: TagProbeContext,
): Promise<Pick<TagCheck, 'example' | 'checks'>> {
  const declared = entry.invocation.example;
  if (declared === undefined) {
    const why = skip('the invocation declares a signature, not an executable example');
    return {
      example: { verdict: 'skip', body: null, target: null, status: null, problem: null, detail: why.detail, ms: null },
      checks: allSkipped(why.detail!),
    };
  }
  const example = { body: declared.body ?? '', target: declared.target ?? null };
  const run = (abort = false) => runMarked(context.host, entry.runtime, example, context, abort);
  const first = await run();
  const needs = first.outcome.result.status >= 400 ? missingTarget(entry, example.target, context.cwd) : undefined;
  if (needs !== undefined) {
    const why = `not run: needs ${example.target} (${needs}): ${first.outcome.result.problem?.detail ?? `status ${first.outcome.result.status}`}`;
    return {
      example: {
        verdict: 'skip',
        ...example,
        status: first.outcome.result.status,
        problem: first.outcome.result.problem?.type ?? null,
        detail: why,
        ms: first.ms,
      },
      checks: allSkipped(why),
    };
  }
  // A second run in the first run's thread, then a first run in a fresh thread. When the
  // example failed there is no answer to compare, so the state check is skipped.
  const again = first.outcome.result.status < 400 ? await run() : undefined;
  const fresh = again === undefined ? undefined : await run();
  const aborted = await run(true);
  const { outcome } = first;
  const problem = outcome.result.problem;
  return {
    example: {
      verdict: outcome.result.status < 400 ? 'pass' : 'fail',
      ...example,
      status: outcome.result.status,
      problem: problem?.type ?? null,
      detail: problem?.detail ?? null,
      ms: first.ms,
    },
    checks: {
      undeclaredChannels: judgeViolations(outcome.violations.filter((v) => v.kind === 'undeclared-channel')),
      console: judgeConsole(outcome),
      signal: judgeSignal(aborted.outcome, context.graceMs),
      processes: judgeProcesses([first, again, fresh, aborted].filter((marked) => marked !== undefined)),
      state:
        again === undefined || fresh === undefined
          ? skip('the example failed, so there is no answer to compare')
          : judgeState([first.outcome, fresh.outcome], again.outcome),
      result: judgeResult(outcome),
      violations: judgeViolations(outcome.violations.filter((v) => !JUDGED_APART.has(v.kind))),
    },
  };
}

/**
 * Why the example's target is missing where it ran — a `path` or `resource` target that does
 * not exist in `cwd` — or undefined when it is there (or is a literal, which has no place).
 * A failed example with a missing target could not run here: that is the author's setup, not
 * the leaf's fault.
 */
function missingTarget(entry: RegistryEntry, target: string | null, cwd: string): string | undefined {
  const kind = entry.invocation.target?.kind;
  if (target === null || target === '' || (kind !== 'path' && kind !== 'resource')) return undefined;
  let path: string;
  try {
    path = target.startsWith('file:') ? fileURLToPath(target) : resolve(cwd, target);
  } catch {
    return undefined;
  }
  if (existsSync(path)) return undefined;
  return `no such ${kind} in ${cwd}; give check a cwd (--cwd <dir>) where it exists`;
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

/** One run with a fresh marker; whatever carries the marker afterwards outlived it, and is killed. */
async function runMarked(
  host: Host,
  tag: string,
  example: Example,
  context: TagProbeContext,
  abort = false,
): Promise<Marked> {
  const marker = randomUUID();
  const controller = new AbortController();
  let timer: NodeJS.Timeout | undefined;
  if (abort) timer = setTimeout(() => controller.abort(), 50);
  const started = performance.now();
  const outcome = await host.exec({
    runtime: tag,
    ...example,
    cwd: context.cwd,
    env: { ...context.env, [CHECK_MARKER]: marker },
    timeoutMs: context.timeoutMs,
    signal: controller.signal,
    // The first sign of life is the moment to abort: the run is surely under way.
    ...(abort ? { sinks: { write: () => controller.abort(), emit: () => controller.abort() } } : {}),
  });
  clearTimeout(timer);
  const ms = Math.round(performance.now() - started);
  const survivors = findMarkedProcesses(CHECK_MARKER, marker);
  killProcesses(survivors);
  return { outcome, ms, outlived: survivors.map((p) => `${p.pid} (${p.command})`) };
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

/** Run-end reasons that say a limit ended the aborted run before it could show whether it honours its signal. */
const LIMIT_ENDS: ReadonlySet<RunEndReason> = new Set(['heap-limit', 'external-limit', 'rss-limit', 'output-limit']);

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

function judgeProcesses(runs: Marked[]): CheckItem {
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

function judgeResult(outcome: ExecOutcome): CheckItem {
  if (outcome.effect === null)
    return skip(`run() was never called: ${outcome.result.problem?.detail ?? 'the EXEC was refused'}`);
  const type = outcome.result.problem?.type ?? '';
  if (type.endsWith('/exec/executor-threw') || type.endsWith('/exec/executor-invalid-result'))
    return fail(outcome.result.problem!.detail);
  return pass();
}

/** What a run answered, as one comparable string: status, Problem type and every channel's text. */
function fingerprint(outcome: ExecOutcome): string {
  const channels = Object.fromEntries(Object.entries(outcome.channels).map(([name, channel]) => [name, channel.text]));
  return JSON.stringify({ status: outcome.result.status, problem: outcome.result.problem?.type ?? null, channels });
}

/**
 * One run of a tag's example through the host, and what it did: check's own wall clock, its
 * own sinks counting what reached them, a snapshot of the run's cwd before and after, the
 * memory of the run's processes sampled from /proc, the host's `containment` (console bytes,
 * processes started and reaped, the thread's peak memory), the violations by kind, and every
 * process carrying the run's marker once the host was done — which outlived the run, and is killed —
 * and what the engine's sandbox refused while it ran (forks past its pids bound, OOM kills).
 */
import { randomUUID } from 'node:crypto';
import { readdirSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import type { ViolationKind } from '../contracts/violation.js';
import type { EmbeddingSinks, ExecOutcome, Host } from '../model/host-types.js';
import { findMarkedProcesses, killProcesses } from '../runtime/marked-processes.js';
import type { RunFigures, RunName } from './check-report.js';
import { watchChildrenMemory } from './children-memory.js';
import { diffSnapshots, snapshotCwd } from './cwd-snapshot.js';

/** The variable every checked run carries in its environment, so its processes can be found. */
export const CHECK_MARKER = 'PLURNK_EXECS_CHECK_RUN';

/** How an aborted run is aborted when it shows no life: this long after it began (ms). */
const ABORT_AFTER_MS = 50;

/** Where and how one tag's example runs. */
export interface RunContext {
  /** A host whose threads serve two runs each, the thread that has run most first (`recycle: { afterRuns: 2 }`). */
  readonly host: Host;
  /** The environment of every run (the marker is added per run). */
  readonly env: Record<string, string>;
  /** Working directory of every run. */
  readonly cwd: string;
  /** True when the cwd is check's own: it is emptied before each run, so every run starts alike. */
  readonly ownsCwd: boolean;
  readonly timeoutMs: number;
  readonly graceMs: number;
}

/** A declared example, as it runs. */
export interface Example {
  readonly body: string;
  readonly target: string | null;
}

/** One run and what it did. */
export interface MeasuredRun {
  readonly outcome: ExecOutcome;
  /** Processes carrying the run's marker after the host's reap, as `<pid> (<command>)`: check killed them. */
  readonly outlived: readonly string[];
  readonly figures: RunFigures;
}

/** Runs `example` once as `run` (aborted once it shows life when `run` is `aborted`) and measures it. */
export async function measureRun(
  context: RunContext,
  tag: string,
  example: Example,
  run: RunName,
): Promise<MeasuredRun> {
  if (context.ownsCwd) emptyDirectory(context.cwd);
  const marker = randomUUID();
  const controller = new AbortController();
  const abort = run === 'aborted';
  const counted = { messages: 0, bytes: 0 };
  // A sink must not throw into the host: counting plain strings and validated JSON cannot.
  const seen = (bytes: number) => {
    counted.messages += 1;
    counted.bytes += bytes;
    // The first sign of life is the moment to abort: the run is surely under way.
    if (abort) controller.abort();
  };
  const sinks: EmbeddingSinks = {
    write: (_channel, chunk) => seen(Buffer.byteLength(chunk, 'utf8')),
    emit: (notice) => seen(Buffer.byteLength(JSON.stringify(notice), 'utf8')),
  };
  const timer = abort ? setTimeout(() => controller.abort(), ABORT_AFTER_MS) : undefined;
  const before = snapshotCwd(context.cwd);
  const memory = watchChildrenMemory(CHECK_MARKER, marker);
  const started = performance.now();
  const outcome = await context.host.exec({
    runtime: tag,
    ...example,
    cwd: context.cwd,
    env: { ...context.env, [CHECK_MARKER]: marker },
    timeoutMs: context.timeoutMs,
    signal: controller.signal,
    sinks,
  });
  const wallMs = Math.round(performance.now() - started);
  clearTimeout(timer);
  const childrenPeakBytes = memory.stop();
  const survivors = findMarkedProcesses(CHECK_MARKER, marker);
  killProcesses(survivors);
  const containment = outcome.containment;
  const reaped = containment?.reapedProcesses ?? 0;
  const figures: RunFigures = {
    run,
    outcome: outcome.outcome,
    status: outcome.result.status,
    wallMs,
    memory: { threadPeakBytes: containment?.usage?.peakThreadBytes ?? null, childrenPeakBytes },
    processes: {
      started: containment?.usage?.processesStarted ?? null,
      left: reaped + survivors.length,
      escaped: survivors.length,
    },
    files: diffSnapshots(before, snapshotCwd(context.cwd)),
    consoleBytes: containment?.console?.bytes ?? 0,
    sinks: counted,
    violations: countKinds(outcome.violations.map((violation) => violation.kind)),
    sandbox: containment?.sandbox ?? null,
  };
  return { outcome, outlived: survivors.map((p) => `${p.pid} (${p.command})`), figures };
}

function countKinds(kinds: readonly ViolationKind[]): Partial<Record<ViolationKind, number>> {
  const counts: Partial<Record<ViolationKind, number>> = {};
  for (const kind of kinds) counts[kind] = (counts[kind] ?? 0) + 1;
  return counts;
}

/** Removes everything inside `dir`, keeping `dir`: what an earlier run left must not change the next one's answer. */
function emptyDirectory(dir: string): void {
  for (const name of readdirSync(dir)) rmSync(join(dir, name), { recursive: true, force: true });
}

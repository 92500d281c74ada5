import { spawn, spawnSync } from 'node:child_process';
import { once } from 'node:events';
import { mkdirSync, mkdtempSync, readdirSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { PlurnkExecsError } from '../../contracts/errors.js';
import { packageRoot } from '../../runtime/package-root.js';
import { summarizeProfiles, type CpuProfile, type ProfileShare, type ProfileSummary } from './cpu-profile.js';
import { PROFILE_WORKLOADS, WINDOW_FILE, type ProfileWindow } from './profile-workloads.js';

// The compiled child, as threads and the engine always run dist/ JavaScript.
const CHILD = join(packageRoot(), 'dist', 'bench', 'profile', 'profile-child.js');

/** Options of {@link runProfile}. */
export interface ProfileOptions {
  /** A key of PROFILE_WORKLOADS. */
  readonly workload: string;
  /** How many runs (default: the workload's own). */
  readonly runs?: number;
  /** Where the `.cpuprofile` files go (default: a new temp directory, named in the report). */
  readonly out?: string;
  /** Where installed leaves are discovered (the `boot` workload). */
  readonly cwd?: string;
}

/** One kind of thread's merged profile. */
export interface ProfileGroup {
  readonly name: string;
  readonly profiles: number;
  readonly summary: ProfileSummary;
}

/**
 * Runs one workload in a fresh Node process under `--cpu-prof` (its worker threads inherit the
 * flag, each writing its own profile) and summarizes the profiles by kind of thread: the
 * process's main thread, and its executor threads merged (an engine's isolates, in the process
 * tier, write tick logs instead, summarized whole); only what the workload's runs took
 * counts (its windows), not start-up, idle gaps or close. Rejects with `invalid-configuration`
 * for an unknown workload, `boot-failed` when the profiled process fails.
 */
export async function runProfile(
  options: ProfileOptions,
): Promise<{ out: string; groups: ProfileGroup[]; engineLogs: EngineLog[] }> {
  const workload = PROFILE_WORKLOADS[options.workload as keyof typeof PROFILE_WORKLOADS];
  if (!Object.hasOwn(PROFILE_WORKLOADS, options.workload)) {
    throw new PlurnkExecsError(
      'invalid-configuration',
      `unknown profile workload ${JSON.stringify(options.workload)}: choose from ${Object.keys(PROFILE_WORKLOADS).join(', ')}`,
    );
  }
  const out = options.out ?? mkdtempSync(join(tmpdir(), 'plurnk-execs-profile-'));
  mkdirSync(out, { recursive: true });
  const runs = options.runs ?? workload.runs;
  const child = spawn(
    process.execPath,
    ['--cpu-prof', `--cpu-prof-dir=${out}`, CHILD, options.workload, String(runs), options.cwd ?? process.cwd(), out],
    // An engine (the process tier) cannot write a .cpuprofile under its permission model; it
    // writes V8's tick log per isolate here instead (engine/engine-command.ts).
    { stdio: ['ignore', 'inherit', 'inherit'], env: { ...process.env, PLURNK_EXECS_ENGINE_PROF_DIR: out } },
  );
  const [code, signal] = (await once(child, 'exit')) as [number | null, NodeJS.Signals | null];
  if (code !== 0) {
    throw new PlurnkExecsError(
      'boot-failed',
      `the profiled workload ${options.workload} ended with ${signal ?? `code ${code}`}: see its output above`,
    );
  }
  return { out, groups: groupProfiles(out, child.pid!), engineLogs: summarizeEngineLogs(out) };
}

/** One engine isolate's tick log, as `node --prof-process` summarizes it. */
export interface EngineLog {
  readonly file: string;
  /** The `[Summary]` block and the heaviest entries of the `[JavaScript]` and `[C++]` blocks. */
  readonly summary: string;
}

/** Each engine tick log in `dir` (the process tier's workloads write them), summarized. */
function summarizeEngineLogs(dir: string): EngineLog[] {
  return readdirSync(dir)
    .filter((name) => /^isolate-.*-engine-.*\.log$/.test(name))
    .sort()
    .map((file) => {
      const processed = spawnSync(process.execPath, ['--prof-process', join(dir, file)], { encoding: 'utf8' });
      return { file, summary: pickBlocks(processed.stdout ?? '') };
    });
}

/** The first line, the whole `[Summary]` block, and the first entries of `[JavaScript]` and `[C++]`. */
function pickBlocks(text: string): string {
  const blocks = text.split(/\n\s*\n/);
  const head = (name: string, rows: number) => {
    const block = blocks.find((lines) => lines.trimStart().startsWith(`[${name}]`));
    return block === undefined
      ? []
      : [
          block
            .split('\n')
            .slice(0, rows + 2)
            .join('\n'),
        ];
  };
  return [blocks[0] ?? '', ...head('Summary', 10), ...head('JavaScript', 8), ...head('C++', 8)].join('\n\n');
}

/** Reads every profile in `dir`, merged by kind: the main thread of `mainPid`, its threads, and any other process's. */
function groupProfiles(dir: string, mainPid: number): ProfileGroup[] {
  const groups = new Map<string, CpuProfile[]>();
  for (const file of readdirSync(dir)
    .filter((name) => name.endsWith('.cpuprofile'))
    .sort()) {
    // CPU.<date>.<time>.<pid>.<thread id>.<sequence>.cpuprofile
    const [, , , pid, thread] = file.split('.');
    const process_ = Number(pid) === mainPid ? 'the process' : `process ${pid}`;
    const name = thread === '0' ? `${process_}: main thread` : `${process_}: worker threads`;
    const list = groups.get(name) ?? [];
    list.push(JSON.parse(readFileSync(join(dir, file), 'utf8')) as CpuProfile);
    groups.set(name, list);
  }
  const root = `${pathToFileURL(packageRoot()).href}/`;
  const windows = JSON.parse(readFileSync(join(dir, WINDOW_FILE), 'utf8')) as ProfileWindow[];
  return [...groups].map(([name, profiles]) => ({
    name,
    profiles: profiles.length,
    summary: summarizeProfiles(profiles, root, windows),
  }));
}

/**
 * The summaries as markdown: per kind of thread, V8's buckets, the top functions and areas by
 * self time; then each engine isolate's tick log summary (the whole run: a tick log has no window).
 */
export function formatProfile(
  workload: string,
  groups: readonly ProfileGroup[],
  engineLogs: readonly EngineLog[] = [],
): string {
  const percent = (share: number) => `${(share * 100).toFixed(1)} %`;
  const table = (title: string, shares: readonly ProfileShare[]) => [
    `| self | ${title} |`,
    '|---|---|',
    ...shares.map((row) => `| ${percent(row.share)} | \`${row.name}\` |`),
  ];
  const lines = [`## ${workload}: ${PROFILE_WORKLOADS[workload as keyof typeof PROFILE_WORKLOADS].summary}`, ''];
  for (const { name, profiles, summary } of groups) {
    lines.push(
      `### ${name} (${profiles} profile${profiles === 1 ? '' : 's'}, ${summary.totalMs.toFixed(0)} ms sampled)`,
      '',
      `idle ${percent(summary.idle)}, garbage collection ${percent(summary.gc)}, native without a JS frame ${percent(summary.program)}`,
      '',
      ...table('function', summary.functions),
      '',
      ...table('area', summary.areas),
      '',
    );
  }
  for (const log of engineLogs) lines.push(`### engine isolate: ${log.file}`, '', '```', log.summary, '```', '');
  return lines.join('\n');
}

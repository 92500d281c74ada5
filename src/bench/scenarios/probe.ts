import { execFile } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { DEFAULT_KILL_GRACE_MS } from '../../runtime/abort-reason.js';
import { bootBenchHost } from '../boot-bench-host.js';
import { DEFAULT_LOAD_TIMEOUT_MS, DEFAULT_PROBE_TIMEOUT_MS } from '../../model/defaults.js';
import { resolveHostOptions } from '../../model/host-options.js';
import { probeTag } from '../../thread-host/probe-all.js';
import { TagWorkers } from '../../thread-host/threads/tag-workers.js';
import { resolveErrorDetailLimit, workerBaseEnv } from '../../thread-host/threads/worker-env.js';
import { summarize, target, type BenchContext, type BenchRow, type ScenarioReport } from '../bench-report.js';
import { discoverLeaves, leafEntries } from '../bench-leaves.js';
import type { InProcessProbeAnswer, InProcessProbeRequest } from '../probe-in-process.js';
import { timeMs } from '../sample.js';

const run = promisify(execFile);
const CHILD = fileURLToPath(new URL('../probe-in-process.js', import.meta.url));

/**
 * Scenario 1. Per tag: a cold probe (a new thread starts, imports the leaf, constructs it,
 * probes) and warm probes in the same thread, each against the same steps in-process (a fresh
 * Node process per cold sample, so the leaf import is cold there too). Then the whole boot of
 * every tag — a host of the tier the run measures — against every tag imported and probed
 * concurrently in-process.
 */
export async function benchProbe(context: BenchContext): Promise<ScenarioReport> {
  const { discovery, source } = await discoverLeaves(context.cwd);
  const leaves = leafEntries(discovery);
  const rounds = context.quick ? 3 : 12;
  const warmPerRound = context.quick ? 5 : 20;
  // A slow probe (python3 through a pyenv shim: ~0.4 s) gets at least 3 warm samples a round, not 20.
  const warmBudgetMs = context.quick ? 300 : 1000;
  const detailLimit = await resolveErrorDetailLimit(discovery.env);
  const env = workerBaseEnv(process.env, detailLimit);
  // A host's default limits: the probe's threads start as a default host's do.
  const { limits } = resolveHostOptions();
  const probeOptions = {
    probeTimeoutMs: DEFAULT_PROBE_TIMEOUT_MS,
    loadTimeoutMs: DEFAULT_LOAD_TIMEOUT_MS,
    graceMs: DEFAULT_KILL_GRACE_MS,
    detailLimit,
  };

  const isolated = { cold: new Map<string, number[]>(), warm: new Map<string, number[]>() };
  const inProcess = { cold: new Map<string, number[]>(), warm: new Map<string, number[]>() };
  const boot = { isolated: [] as number[], inProcess: [] as number[] };
  const unavailable = new Set<string>();
  for (let round = 0; round < rounds; round++) {
    context.progress(`probe: round ${round + 1}/${rounds} over ${leaves.length} tags`);
    for (const leaf of leaves) {
      const boot = { tag: leaf.tag, glyph: leaf.glyph, entryUrl: leaf.entryUrl, limits };
      const workers = new TagWorkers({ boot, env }, 'never');
      let verdict: Awaited<ReturnType<typeof probeTag>> | undefined;
      push(
        isolated.cold,
        leaf.tag,
        await timeMs(async () => (verdict = await probeTag(leaf.tag, workers, probeOptions))),
      );
      if (!verdict?.verdict.available) unavailable.add(leaf.tag);
      const budget = performance.now() + warmBudgetMs;
      for (let i = 0; i < warmPerRound && (i < 3 || performance.now() < budget); i++) {
        push(isolated.warm, leaf.tag, await timeMs(() => probeTag(leaf.tag, workers, probeOptions)));
      }
      await workers.close();
    }
    const each = await probeInChild({ mode: 'each', leaves, warm: warmPerRound, warmBudgetMs });
    for (const leaf of leaves) {
      push(inProcess.cold, leaf.tag, each.cold[leaf.tag]!);
      for (const ms of each.warm[leaf.tag]!) push(inProcess.warm, leaf.tag, ms);
    }
    const booting = performance.now();
    const host = await bootBenchHost(context, discovery);
    boot.isolated.push(performance.now() - booting);
    await host.close();
    boot.inProcess.push((await probeInChild({ mode: 'all', leaves, warm: 0, warmBudgetMs: 0 })).bootMs);
  }

  const rows: BenchRow[] = [];
  for (const leaf of leaves) {
    rows.push(
      compare(
        `${leaf.tag} cold probe (thread start → verdict)`,
        isolated.cold.get(leaf.tag)!,
        'in-process import + probe',
        inProcess.cold.get(leaf.tag)!,
      ),
    );
    rows.push(
      compare(
        `${leaf.tag} warm probe`,
        isolated.warm.get(leaf.tag)!,
        'in-process probe()',
        inProcess.warm.get(leaf.tag)!,
      ),
    );
  }
  const whole = compare(
    `boot of all ${leaves.length} tags (${context.isolation} tier host)`,
    boot.isolated,
    'in-process, concurrently',
    boot.inProcess,
  );
  rows.push({ ...whole, target: target(whole.ratio!, '<=', 2) });
  const notes = [source + `: ${leaves.map((leaf) => `${leaf.tag} (${leaf.packageName})`).join(', ')}.`];
  notes.push(
    'In-process baselines run in a fresh Node process per sample with the library already imported, timed from inside; a tag that shares its package with an earlier tag finds the module cached there, but every thread imports it anew.',
  );
  if (unavailable.size > 0) notes.push(`Probed unavailable here: ${[...unavailable].join(', ')}.`);
  return { name: 'probe', rows, notes };
}

function compare(name: string, subject: number[], baselineName: string, baseline: number[]): BenchRow {
  const s = summarize(subject);
  const b = summarize(baseline);
  return { name, unit: 'ms', subject: s, baseline: { name: baselineName, stat: b }, ratio: s.median / b.median };
}

/** Imports and probes leaves in a fresh Node process (probe-in-process.ts): the in-process baseline. */
export async function probeInChild(request: InProcessProbeRequest): Promise<InProcessProbeAnswer> {
  const { stdout } = await run(process.execPath, [CHILD, JSON.stringify(request)], { maxBuffer: 16 * 1024 * 1024 });
  return JSON.parse(stdout) as InProcessProbeAnswer;
}

function push(map: Map<string, number[]>, key: string, value: number): void {
  const list = map.get(key);
  if (list) list.push(value);
  else map.set(key, [value]);
}

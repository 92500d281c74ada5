import { bootProcessHost } from '../../host/boot-host.js';
import { single, summarize, target, type BenchContext, type BenchRow, type ScenarioReport } from '../bench-report.js';
import { discoverLeaves, leafEntries } from '../bench-leaves.js';
import type { EngineCost } from '../memory-child.js';
import { timeMs } from '../sample.js';
import { measureInChild } from './memory.js';
import { probeInChild } from './probe.js';

/** How long the engines sit idle while their CPU is counted. */
const IDLE_MS = 10_000;

/**
 * Scenario 11. What an engine per package costs (issue 24), every figure against a baseline of
 * the same run: the boot of every installed tag in the process tier — one engine per package,
 * booted concurrently — against the same imports and probes in-process, all at once, round by
 * round; the RSS the service and every process it started add at boot, against the thread
 * tier's host booting the same tags; and what each idle engine costs: its RSS, and the CPU it
 * (with its namespace's init and `unshare`) uses while nothing runs.
 */
export async function benchEngines(context: BenchContext): Promise<ScenarioReport> {
  const { discovery, source } = await discoverLeaves(context.cwd);
  const leaves = leafEntries(discovery);
  const packages = new Set(leaves.map((leaf) => leaf.packageName)).size;
  const rounds = context.quick ? 2 : 6;
  const boot = { engines: [] as number[], inProcess: [] as number[] };
  for (let round = 0; round < rounds; round++) {
    context.progress(`engines: boot round ${round + 1}/${rounds}, ${leaves.length} tags in ${packages} engines`);
    let host: Awaited<ReturnType<typeof bootProcessHost>> | undefined;
    boot.engines.push(await timeMs(async () => (host = await bootProcessHost(discovery))));
    await host?.close();
    boot.inProcess.push((await probeInChild({ mode: 'all', leaves, warm: 0, warmBudgetMs: 0 })).bootMs);
  }
  const booting = summarize(boot.engines);
  const inProcess = summarize(boot.inProcess);
  const bootRow: BenchRow = {
    name: `boot of all ${leaves.length} tags, ${packages} engines at once`,
    unit: 'ms',
    subject: booting,
    baseline: { name: 'in-process, concurrently', stat: inProcess },
    ratio: booting.median / inProcess.median,
  };

  const idleMs = context.quick ? 3000 : IDLE_MS;
  context.progress(`engines: RSS at boot, each tier, and ${idleMs / 1000} s idle`);
  const engines = await measureInChild({ mode: 'boot-process', cwd: context.cwd, idleMs });
  const thread = await measureInChild({ mode: 'boot-all', cwd: context.cwd });
  const added = engines.afterMb - engines.beforeMb;
  const threadAdded = thread.afterMb - thread.beforeMb;
  const pssAdded = engines.pss === undefined ? 0 : engines.pss.afterMb - engines.pss.beforeMb;
  const threadPssAdded = thread.pss === undefined ? 0 : thread.pss.afterMb - thread.pss.beforeMb;
  const rows: BenchRow[] = [
    { ...bootRow, target: target(bootRow.ratio!, '<=', 2) },
    {
      name: `RSS added at boot: the service + its ${engines.engines?.length ?? 0} engines' processes`,
      unit: 'MB',
      subject: single(added),
      baseline: { name: 'thread tier, the same tags', stat: single(threadAdded) },
      ratio: added / threadAdded,
      target: target(added, '<=', 250, 'subject'),
    },
    {
      name: `the same as proportional set sizes: a page shared by n processes counts 1/n`,
      unit: 'MB',
      subject: single(pssAdded),
      baseline: { name: 'thread tier, the same tags', stat: single(threadPssAdded) },
      ratio: pssAdded / threadPssAdded,
      target: target(pssAdded, '<=', 250, 'subject'),
    },
  ];
  const costs = engines.engines ?? [];
  return {
    name: 'engines',
    rows,
    notes: [
      `${source}: ${leaves.length} tags of ${packages} packages, ${engines.statuses.available} available; the service itself went from ${engines.beforeMb.toFixed(0)} to ${engines.statuses.serviceMb} MB.`,
      `Each engine just booted (its node process; its init and unshare), and the CPU all three used over ${idleMs / 1000} s idle: ${costs.map(describeCost).join('; ')}.`,
      `An idle engine costs its node process's RSS (${range(costs.map((cost) => cost.rssMb))} MB here, a warm thread per package included; ${range(costs.map((cost) => cost.pssMb))} MB of it its own, the rest the node binary and libraries every node process shares) and ${range(costs.map((cost) => cost.machineryMb))} MB for its init and unshare; its heartbeat, every limits.heartbeatMs, is all it does.`,
    ],
  };
}

function describeCost(cost: EngineCost): string {
  return `${cost.packages.join(' + ')} (${cost.tags} tag${cost.tags === 1 ? '' : 's'}): ${cost.rssMb.toFixed(0)} MB (PSS ${cost.pssMb.toFixed(0)}) + ${cost.machineryMb.toFixed(1)} MB, ${cost.idleCpuMs} ms CPU`;
}

function range(values: readonly number[]): string {
  if (values.length === 0) return 'none';
  const low = Math.min(...values).toFixed(0);
  const high = Math.max(...values).toFixed(0);
  return low === high ? low : `${low}–${high}`;
}

import { setTimeout as sleep } from 'node:timers/promises';
import { fileURLToPath } from 'node:url';
import { Worker } from 'node:worker_threads';
import { bootHost, bootProcessHost } from '../host/boot-host.js';
import type { Discovery, RegistryEntry } from '../contracts/registry.js';
import { discoverFixtures, discoverLeaves } from './bench-leaves.js';
import { descendantsOf, pssMb, type TreeProcess } from './process-tree.js';

// The memory scenario's measurements, each in a fresh Node process started with --expose-gc
// so RSS starts from the same floor and no earlier scenario's garbage is counted. Started
// only by scenarios/memory.ts.

/** What the parent asks: idle threads of a host, idle bare workers, or RSS across many runs. */
export type MemoryRequest =
  | { readonly mode: 'idle-host' | 'idle-bare'; readonly threads: number; readonly settleMs: number }
  | { readonly mode: 'mixed'; readonly runs: number; readonly every: number }
  /** RSS before `createHost` and just after it booted every leaf installed under `cwd`. */
  | { readonly mode: 'boot-all'; readonly cwd: string }
  /** The same in the process tier, the engines' processes included, then each engine's CPU over `idleMs` idle. */
  | { readonly mode: 'boot-process'; readonly cwd: string; readonly idleMs: number };

/** What one engine of the process tier costs, just booted and then idle. */
export interface EngineCost {
  readonly packages: readonly string[];
  readonly tags: number;
  /** The engine's node process. */
  readonly rssMb: number;
  /** Its proportional share: what the machine holds for it alone, shared pages divided among their sharers. */
  readonly pssMb: number;
  /** Its `unshare` and its namespace's init (0 without a namespace). */
  readonly machineryMb: number;
  /** CPU the three used while the host sat idle for `idleMs`. */
  readonly idleCpuMs: number;
}

/** RSS in MB: before and after starting idle threads, or sampled every `every` runs. */
export interface MemoryAnswer {
  readonly beforeMb: number;
  readonly afterMb: number;
  /** Idle modes: the lowest RSS while the threads sat idle for `settleMs`. */
  readonly settledMb: number;
  /** RSS after each `every` runs (mixed mode). */
  readonly samplesMb: number[];
  readonly statuses: Record<string, number>;
  /** boot-process: each engine's cost. */
  readonly engines?: readonly EngineCost[];
  /** boot-all and boot-process: the same before and after, as proportional set sizes (process-tree.ts). */
  readonly pss?: { readonly beforeMb: number; readonly afterMb: number };
}

if (process.argv[1] !== fileURLToPath(import.meta.url)) {
  throw new Error('memory-child.js runs only as the child process the memory scenario starts');
}
{
  const request = JSON.parse(process.argv[2]!) as MemoryRequest;
  process.stdout.write(JSON.stringify(await measure(request)));
}

async function measure(request: MemoryRequest): Promise<MemoryAnswer> {
  if (request.mode === 'mixed') return measureMixed(request.runs, request.every);
  if (request.mode === 'boot-all') return measureBootAll(request.cwd);
  if (request.mode === 'boot-process') return measureBootProcess(request.cwd, request.idleMs);
  const noop = await discoverFixtures('exec-noop');
  const beforeMb = await settledRss();
  let close: () => Promise<unknown>;
  if (request.mode === 'idle-host') {
    const host = await bootHost(withCopies(noop, request.threads));
    close = () => host.close();
  } else {
    const workers = await Promise.all(Array.from({ length: request.threads }, () => startBareWorker()));
    close = () => Promise.all(workers.map((worker) => worker.terminate()));
  }
  const afterMb = await settledRss();
  // V8 shrinks an idle isolate's heap on its own schedule (10–25 s here): keep the lowest RSS seen.
  let settledMb = afterMb;
  for (const until = performance.now() + request.settleMs; performance.now() < until;) {
    settledMb = Math.min(settledMb, await settledRss(1000));
  }
  await close();
  return { beforeMb, afterMb, settledMb, samplesMb: [], statuses: {} };
}

/** `statuses` counts the tags booted (`tags`) and how many are available. */
async function measureBootAll(cwd: string): Promise<MemoryAnswer> {
  const { discovery } = await discoverLeaves(cwd);
  const beforeMb = await settledRss();
  const beforePss = pssMb('self');
  const host = await bootHost(discovery);
  const afterMb = await settledRss();
  const pss = { beforeMb: beforePss, afterMb: pssMb('self') };
  const statuses = { tags: discovery.registry.size, available: host.availableRuntimes().length };
  await host.close();
  return { beforeMb, afterMb, settledMb: afterMb, samplesMb: [], statuses, pss };
}

/**
 * The service's RSS before and after booting every installed leaf in the process tier, plus
 * the RSS of every process it started (`afterMb` holds both); then each engine's own cost.
 */
async function measureBootProcess(cwd: string, idleMs: number): Promise<MemoryAnswer> {
  const { discovery } = await discoverLeaves(cwd);
  const beforeMb = await settledRss();
  const beforePss = pssMb('self');
  const host = await bootProcessHost(discovery);
  try {
    const serviceMb = await settledRss(1000);
    const servicePss = pssMb('self');
    const booted = descendantsOf(process.pid);
    const engines = host.isolation().engines ?? [];
    await sleep(idleMs);
    const idle = new Map(descendantsOf(process.pid).map((row) => [row.pid, row.cpuMs]));
    const costs = engines.map((engine): EngineCost => {
      const [node, ...machinery] = engineProcesses(booted, engine.pid);
      const used = (row: TreeProcess) => (idle.get(row.pid) ?? row.cpuMs) - row.cpuMs;
      return {
        packages: engine.packages,
        tags: engine.tags.length,
        rssMb: node?.rssMb ?? 0,
        pssMb: node?.pssMb ?? 0,
        machineryMb: machinery.reduce((sum, row) => sum + row.rssMb, 0),
        idleCpuMs: [node, ...machinery].reduce((sum, row) => sum + (row === undefined ? 0 : used(row)), 0),
      };
    });
    const afterMb = serviceMb + booted.reduce((sum, row) => sum + row.rssMb, 0);
    const statuses = {
      tags: discovery.registry.size,
      available: host.availableRuntimes().length,
      engines: engines.length,
      serviceMb: Math.round(serviceMb),
    };
    const pss = { beforeMb: beforePss, afterMb: servicePss + booted.reduce((sum, row) => sum + row.pssMb, 0) };
    return { beforeMb, afterMb, settledMb: afterMb, samplesMb: [], statuses, engines: costs, pss };
  } finally {
    await host.close();
  }
}

/** An engine's node process, then its namespace's init and `unshare` when it has them. */
function engineProcesses(
  tree: readonly TreeProcess[],
  pid: number | null,
): [TreeProcess | undefined, ...TreeProcess[]] {
  const node = tree.find((row) => row.pid === pid);
  const init = node === undefined || node.ppid === process.pid ? undefined : tree.find((row) => row.pid === node.ppid);
  const unshare = init === undefined ? undefined : tree.find((row) => row.pid === init.ppid);
  return [node, ...(init === undefined ? [] : [init]), ...(unshare === undefined ? [] : [unshare])];
}

/**
 * The no-op tag registered `count` times (noop-1 … noop-n), each as a package of its own (the
 * tags of one package share their boot probe's thread): one idle, loaded thread each after boot.
 */
function withCopies(discovery: Discovery, count: number): Discovery {
  const entry = discovery.registry.get('noop')!;
  const registry = new Map<string, RegistryEntry>();
  for (let i = 1; i <= count; i++)
    registry.set(`noop-${i}`, { ...entry, runtime: `noop-${i}`, packageName: `${entry.packageName}-${i}` });
  return { ...discovery, registry };
}

/** A plain worker thread that evaluates nothing but waits: Node's own floor per thread. */
async function startBareWorker(): Promise<Worker> {
  const worker = new Worker(
    'require("node:worker_threads").parentPort.postMessage("up"); setInterval(() => {}, 1 << 30);',
    { eval: true },
  );
  await new Promise((resolve) => worker.once('message', resolve));
  return worker;
}

/**
 * Runs a fixed mix — no-op, small and 64 KiB writes, `sh true`, an unknown tag — round robin,
 * under `{ afterRuns: 100 }` so threads are retired and replaced throughout.
 */
async function measureMixed(runs: number, every: number): Promise<MemoryAnswer> {
  const discovery = await discoverFixtures('exec-noop', 'exec-streams', 'exec-interpreters');
  const registry = new Map([...discovery.registry].filter(([tag]) => ['noop', 'streams', 'sh'].includes(tag)));
  const host = await bootHost({ ...discovery, registry }, { recycle: { afterRuns: 100 } });
  const mix = [
    { runtime: 'noop', body: 'x' },
    { runtime: 'streams', body: '100x16' },
    { runtime: 'noop', body: 'x' },
    { runtime: 'streams', body: '4x65536' },
    { runtime: 'noop', body: 'x' },
    { runtime: 'sh', body: 'true' },
    { runtime: 'noop', body: 'x' },
    { runtime: 'missing', body: 'x' },
    { runtime: 'streams', body: '100x16' },
    { runtime: 'noop', body: 'x' },
  ];
  const statuses: Record<string, number> = {};
  const exec = async (i: number) => {
    const status = String((await host.exec(mix[i % mix.length]!)).result.status);
    statuses[status] = (statuses[status] ?? 0) + 1;
  };
  for (let i = 0; i < mix.length * 10; i++) await exec(i);
  const beforeMb = await settledRss();
  const samplesMb: number[] = [];
  for (let i = 0; i < runs; i++) {
    await exec(i);
    if ((i + 1) % every === 0) samplesMb.push(await settledRss());
  }
  const afterMb = samplesMb.at(-1) ?? (await settledRss());
  await host.close();
  return { beforeMb, afterMb, settledMb: afterMb, samplesMb, statuses };
}

/** RSS in MB once background thread starts and retirements settled and garbage was collected. */
async function settledRss(waitMs = 300): Promise<number> {
  await sleep(waitMs);
  const gc = (globalThis as { gc?: () => void }).gc;
  gc?.();
  await sleep(50);
  gc?.();
  return process.memoryUsage.rss() / (1024 * 1024);
}

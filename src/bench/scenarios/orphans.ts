import { setTimeout as sleep } from 'node:timers/promises';
import { bootProcessHost } from '../../host/boot-host.js';
import type { Host } from '../../model/host-types.js';
import { single, target, type BenchContext, type BenchRow, type ScenarioReport } from '../bench-report.js';
import { discoverFixtures, discoverLeaves } from '../bench-leaves.js';
import { descendants, descendantsRss } from '../descendants.js';

/**
 * Each run leaves two orphans to the engine's namespace init: a `setsid` daemon and a plain
 * background child, their stdio /dev/null so the run ends when its shell does.
 */
const ORPHANS = '(setsid sleep 300 </dev/null >/dev/null 2>&1 &) ; (sleep 301 </dev/null >/dev/null 2>&1 &)';
/** Low on purpose: the soak is about every run on a shared 2-core machine, not speed. */
const CONCURRENCY = 3;
/** Issue 31's bound on the zombies a namespace may hold after the runs. */
const ZOMBIE_BOUND = 10;
const MB = 1024 * 1024;
const PATH = process.env.PATH ?? '/usr/bin:/bin';

/**
 * Scenario `orphans` (issue 31's soak, run only when named: it takes 18–25 minutes): 5,000 runs of
 * `sh` through one engine, three at a time, each leaving two orphans, so the namespace's init
 * reaps them and the namespace sweep kills leftovers while other runs are in flight. Reports
 * the zombies left, the init's reaped count (`isolation().zombiesReaped`) and the RSS of the
 * service and of its engine processes after a tenth of the runs and at the end.
 * test/integration/engine/engine-orphan-soak.test.ts asserts the same on 1,000 runs.
 */
export async function benchOrphans(context: BenchContext): Promise<ScenarioReport> {
  const runs = context.quick ? 300 : 5000;
  const warmup = Math.floor(runs / 10);
  const { discovery, source } = await shLeaf(context.cwd);
  const host = await bootProcessHost(discovery, { limits: { graceMs: 300 } });
  const wrong: string[] = [];
  let warm: Rss;
  let end: Rss;
  let zombies: number;
  let reaped: number | undefined;
  const started = performance.now();
  try {
    context.progress(`orphans: ${runs} runs of sh, ${CONCURRENCY} at a time, each leaving two orphans`);
    await runAll(host, 0, warmup, wrong);
    warm = rss();
    await runAll(host, warmup, runs, wrong, (done) => context.progress(`orphans: ${done} of ${runs} runs`));
    end = rss();
    zombies = await settledZombies();
    reaped = host.isolation().zombiesReaped;
  } finally {
    await host.close();
  }
  const seconds = (performance.now() - started) / 1000;
  const rows: BenchRow[] = [
    {
      name: `zombies left in the engine's namespace after ${runs} runs`,
      unit: 'zombies',
      subject: single(zombies),
      target: target(zombies, '<=', ZOMBIE_BOUND - 1, 'subject'),
    },
    {
      name: "orphans the namespace's init reaped (isolation().zombiesReaped)",
      unit: 'processes',
      subject: single(reaped ?? 0),
      baseline: { name: 'two per run', stat: single(2 * runs) },
      ratio: (reaped ?? 0) / (2 * runs),
    },
    rssRow('service RSS', warm.service, end.service),
    rssRow('engine processes RSS', warm.engines, end.engines),
    { name: 'runs settled 200 with their own output', unit: 'runs', subject: single(runs - wrong.length) },
  ];
  return {
    name: 'orphans',
    rows,
    notes: [
      `${source}; ${runs} runs in ${Math.round(seconds)} s. RSS after the first ${warmup} runs (the baseline) and at the end.`,
      ...(wrong.length === 0 ? [] : [`runs that went wrong (first 5): ${wrong.slice(0, 5).join(' | ')}`]),
      ...(reaped === undefined
        ? ["the engine's init counts no reaped processes here (no PID namespace, or the sh init)"]
        : []),
    ],
  };
}

interface Rss {
  readonly service: number;
  readonly engines: number;
}

function rss(): Rss {
  return { service: process.memoryUsage.rss(), engines: descendantsRss().engines };
}

function rssRow(name: string, warm: number, end: number): BenchRow {
  return {
    name: `${name} at the end`,
    unit: 'MB',
    subject: single(end / MB),
    baseline: { name: 'after the warm-up', stat: single(warm / MB) },
    ratio: end / warm,
  };
}

/** The installed `sh` leaf when there is one, else the fixture's (SubprocessExecutor as shipped). */
async function shLeaf(cwd: string) {
  const found = await discoverLeaves(cwd);
  const discovery = found.discovery.registry.has('sh') ? found.discovery : await discoverFixtures('exec-interpreters');
  const source = found.discovery.registry.has('sh') ? found.source : 'the exec-interpreters fixture';
  return { discovery: { ...discovery, registry: new Map([['sh', discovery.registry.get('sh')!]]) }, source };
}

/** Runs `from` to `to`, {@link CONCURRENCY} at a time, noting each run that did not settle 200 with its own output. */
async function runAll(host: Host, from: number, to: number, wrong: string[], progress?: (done: number) => void) {
  let next = from;
  const runner = async () => {
    while (next < to) {
      const i = next++;
      if (progress !== undefined && i % 500 === 0) progress(i);
      const out = await host.exec({ runtime: 'sh', body: `${ORPHANS} ; echo x ${i}`, env: { PATH } });
      if (out.result.status !== 200 || out.channels.stdout?.text !== `x ${i}\n`)
        wrong.push(`run ${i}: ${out.result.status} ${out.result.problem?.detail ?? ''}`);
    }
  };
  await Promise.all(Array.from({ length: CONCURRENCY }, runner));
}

/** The zombies among this process's descendants (the engine's namespace) once the last leftovers were swept, within 5 s. */
async function settledZombies(): Promise<number> {
  const deadline = Date.now() + 5000;
  for (;;) {
    const zombies = descendants().filter((process) => process.zombie).length;
    if (zombies < ZOMBIE_BOUND || Date.now() >= deadline) return zombies;
    await sleep(50);
  }
}

import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { detectPidNamespace } from '../../../src/engine/engine-command.js';
import { detectInit } from '../../../src/engine/namespace-init.js';
import { createHost, type Host } from '../../../src/host/index.js';
import { enginePids, engineZombies } from '../../helpers/engine-pids.js';

const COMMON = fileURLToPath(new URL('../../../src/leaves/common', import.meta.url));
const namespace = detectPidNamespace() !== null;
const PATH = process.env.PATH ?? '/usr/bin:/bin';

// Issue 31's soak is 5,000 runs (about 18 minutes on a loaded 2-core machine): too long for every
// CI run on two Nodes, so `npm test` runs 1,000 and PLURNK_EXECS_ORPHAN_SOAK_RUNS=5000 runs the
// whole soak (docs/isolation.md gives its figures).
const RUNS = Number(process.env.PLURNK_EXECS_ORPHAN_SOAK_RUNS ?? 1000);
// Each run leaves two orphans to the namespace's init: a `setsid` daemon and a plain background
// child. Their stdio is /dev/null, so the run ends when its shell does (an orphan holding the
// run's stdout costs the leaf's 200 ms drain each time: engine-orphans.test.ts runs that form).
const ORPHANS = '(setsid sleep 300 </dev/null >/dev/null 2>&1 &) ; (sleep 301 </dev/null >/dev/null 2>&1 &)';
// Runs before the RSS baselines are taken: threads, caches and JIT warm up.
const WARMUP = Math.floor(RUNS / 10);
// Low on purpose: the machine has two shared cores; the soak is about every run, not speed.
const CONCURRENCY = 3;
// The bound on zombies left in the engine's namespace after the runs.
const ZOMBIE_BOUND = 10;
// A leak detector, not a measurement: what the service's RSS may grow after the warm-up.
const RSS_GROWTH_MB = 64;
// The engine's RSS is judged once it idled, not at the last run. Its main thread's heap grows
// lazily: on Node 26 (V8 14) the heap's size climbed from ~20 to ~85 MB over the first ~1,000
// runs while what lived after a collection stayed at 9-12 MB, and RSS followed in a sawtooth
// between ~115 and ~205 MB, a compacting collection giving it back every 700-1,100 runs. Read at
// the last run, its growth from the warm-up's was 22 to 81 MB in seven soaks here (64.3 failed
// CI): that lazy ramp, ~90 KB a run, is larger than a leak of 64 KB a run it would have to tell
// apart. Left idle, V8's memory reducer shrinks the heap to what lives, within 15-90 s: RSS came
// back to -4 to +14 MB of the warm-up's on Node 26 (203 → 114 MB after 1,000 runs), +29 on
// Node 20, while a leak of 64 KB a run, put in the engine to check, stayed 94 MB above it. The
// engine keeps its spare threads while it idles (spares.idleMs below): at ~10 MB each, their
// halving would hide as much of a leak. The warm-up's reading waits for its spares to be topped
// up: read as the last warm-up run ended, the engine held two executor threads, and four once
// idle after the soak; with those two in the growth it read 46-55 MB on Node 26, and 35 without.
const ENGINE_IDLE_GROWTH_MB = 48;
// How long the engine may idle before its RSS must be back within ENGINE_IDLE_GROWTH_MB of the warm-up's.
const ENGINE_SETTLE_MS = 180_000;

// Issue 31's soak: RUNS runs through one engine, each leaving two orphans to its namespace's
// init (a `setsid` daemon and a plain background child), three at a time so the namespace
// sweep kills leftovers while other runs are in flight. Every run settles once with its own
// output; the namespace ends with fewer than 10 zombies; neither the service's nor the
// engine's RSS grows.
describe.runIf(namespace)('the engine’s namespace under a soak of orphans', () => {
  it(
    `settles ${RUNS} runs that each leave two orphans, keeps zombies under ${ZOMBIE_BOUND} and RSS flat`,
    async () => {
      // Spares kept while the engine idles after the runs: they hold as many threads as at the warm-up's reading.
      const host = await createHost({
        isolation: 'process',
        packageDirs: [COMMON],
        limits: { graceMs: 300 },
        spares: { idleMs: 60 * 60_000 },
      });
      let soaked: Soaked;
      try {
        soaked = await soak(host);
      } finally {
        await host.close();
      }
      const { wrong, warm, end, settled, zombies, reaped, engines, threads } = soaked;
      const mb = (bytes: number) => Math.round(bytes / 2 ** 20);
      console.log(
        `orphan soak: ${RUNS} runs; ${zombies} zombies left, ${reaped ?? 'uncounted'} reaped; RSS after the warm-up and at the end: service ${mb(warm.service)} → ${mb(end.service)} MB, engine ${mb(warm.engine)} → ${mb(end.engine)} MB (${mb(settled)} MB idle); engine threads ${threads.warm} → ${threads.settled}`,
      );
      expect(wrong.slice(0, 20)).toEqual([]);
      // One engine served them all: no restart hid the zombies or reset its RSS.
      expect(engines.after).toEqual(engines.before);
      expect(zombies).toBeLessThan(ZOMBIE_BOUND);
      if (detectInit() === 'perl') expect(reaped).toBeGreaterThanOrEqual(2 * RUNS);
      expect((end.service - warm.service) / 2 ** 20, 'service RSS growth (MB)').toBeLessThan(RSS_GROWTH_MB);
      expect((settled - warm.engine) / 2 ** 20, 'engine RSS growth once idle (MB)').toBeLessThan(ENGINE_IDLE_GROWTH_MB);
      expect(enginePids().all).toEqual([]);
    },
    40 * 60_000,
  );
});

/** What the soak saw: the runs that went wrong, RSS after the warm-up, at the end and once the engine idled, zombies left and reaped. */
interface Soaked {
  wrong: string[];
  warm: { service: number; engine: number };
  end: { service: number; engine: number };
  settled: number;
  zombies: number;
  reaped: number | undefined;
  engines: { before: number[]; after: number[] };
  /** The engine's threads at the warm-up's reading and once it idled. */
  threads: { warm: number; settled: number };
}

/** The warm-up, the baselines, the rest of the runs, and what is left after them. */
async function soak(host: Host): Promise<Soaked> {
  const wrong: string[] = [];
  const before = enginePids().engine;
  await runAll(host, 0, WARMUP, wrong);
  const warmThreads = await steadyThreads(before[0]!);
  const warm = { service: serviceRss(), engine: rssOf(before[0]!) };
  await runAll(host, WARMUP, RUNS, wrong);
  const end = { service: serviceRss(), engine: rssOf(before[0]!) };
  const zombies = await settledZombies();
  const reaped = host.isolation().zombiesReaped;
  const settled = await settledRss(before[0]!, warm.engine + ENGINE_IDLE_GROWTH_MB * 2 ** 20);
  const threads = { warm: warmThreads, settled: threadsOf(before[0]!) };
  return { wrong, warm, end, settled, zombies, reaped, engines: { before, after: enginePids().engine }, threads };
}

/** Runs `from` to `to`, {@link CONCURRENCY} at a time, noting every run that did not settle 200 with its own output. */
async function runAll(host: Host, from: number, to: number, wrong: string[]): Promise<void> {
  let next = from;
  const runner = async () => {
    while (next < to) {
      const i = next++;
      const out = await host.exec({ runtime: 'sh', body: `${ORPHANS} ; echo x ${i}`, env: { PATH } });
      if (out.result.status !== 200 || out.channels.stdout?.text !== `x ${i}\n`)
        wrong.push(
          `run ${i}: ${out.result.status} ${JSON.stringify(out.channels.stdout?.text)} ${out.result.problem?.detail ?? ''}`,
        );
    }
  };
  await Promise.all(Array.from({ length: CONCURRENCY }, runner));
}

/** The zombies of the engine's namespace once the last runs' leftovers were swept (within 5 s). */
async function settledZombies(): Promise<number> {
  const deadline = Date.now() + 5000;
  for (;;) {
    const now = engineZombies();
    if (now < ZOMBIE_BOUND || Date.now() >= deadline) return now;
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

/**
 * The engine's RSS once it is below `ceiling`, polled while it idles, or the lowest it reached in
 * {@link ENGINE_SETTLE_MS}; 0 once it is gone (the test's one-engine check fails then).
 */
async function settledRss(pid: number, ceiling: number): Promise<number> {
  const deadline = Date.now() + ENGINE_SETTLE_MS;
  let lowest = rssOf(pid);
  while (lowest >= ceiling && Date.now() < deadline) {
    await new Promise((resolve) => setTimeout(resolve, 500));
    lowest = Math.min(lowest, rssOf(pid));
  }
  return lowest;
}

/** The engine's thread count once it held for 1.5 s (its spares topped up), or as it is after 15 s. */
async function steadyThreads(pid: number): Promise<number> {
  const deadline = Date.now() + 15_000;
  let count = threadsOf(pid);
  let since = Date.now();
  while (Date.now() - since < 1500 && Date.now() < deadline) {
    await new Promise((resolve) => setTimeout(resolve, 250));
    const now = threadsOf(pid);
    if (now !== count) [count, since] = [now, Date.now()];
  }
  return count;
}

/** A process's threads as /proc says, 0 when it is gone. */
function threadsOf(pid: number): number {
  return statusNumber(pid, 'Threads');
}

/** The service's RSS once garbage is collected (when the test process exposes gc). */
function serviceRss(): number {
  (globalThis as { gc?: () => void }).gc?.();
  return process.memoryUsage().rss;
}

/** A process's resident set (bytes) as /proc says, 0 when it is gone. */
function rssOf(pid: number): number {
  return statusNumber(pid, 'VmRSS') * 1024;
}

/** The number a field of `/proc/<pid>/status` starts with (VmRSS in kB), 0 when the process is gone. */
function statusNumber(pid: number, field: string): number {
  try {
    return Number(new RegExp(`^${field}:\\s*(\\d+)`, 'm').exec(readFileSync(`/proc/${pid}/status`, 'utf8'))?.[1] ?? 0);
  } catch {
    return 0;
  }
}

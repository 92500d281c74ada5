/**
 * Checks one leaf package: discovers it alone, boots a host of its own on it (either tier),
 * checks its tags a few at a time — each in an empty temporary directory of its own, or one at
 * a time in the caller's `cwd` — and turns what each tag's parts found into its verdict.
 */
import { mkdtempSync, realpathSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { bootHost, bootProcessHost } from '../host/boot-host.js';
import type { Discovery, RegistryEntry } from '../contracts/registry.js';
import { DEFAULT_GRACE_MS, DEFAULT_LOAD_TIMEOUT_MS, DEFAULT_PROBE_TIMEOUT_MS } from '../model/defaults.js';
import { checkManifest, type ManifestCheck } from './check-manifest.js';
import { CONTRACT_CHECKS, type CheckReport, type TagCheck, type TagVerdict, type Verdict } from './check-report.js';
import { checkExample, notRun } from './check-tag.js';
import { problemWarning } from './judge-example.js';
import type { RunContext } from './measure-run.js';
import type { Availability, Host, Isolation } from '../model/host-types.js';
import { threadEnv } from '../host/thread-env.js';

/** Options of {@link checkPackage}. */
export interface CheckOptions {
  /** Deadline of each run of an example (ms). Default 10 000 (`CHECK_RUN_TIMEOUT_MS`). */
  timeoutMs?: number;
  /** Grace after an abort, and between SIGHUP and SIGKILL (ms). Default the host's, 2000. */
  graceMs?: number;
  /** How long a probe, and the package's runtimes hook, may take (ms). Default the host's probe timeout, 3000. */
  probeTimeoutMs?: number;
  /** How long a thread may take to load the leaf (import and constructor) (ms). Default the host's, 15 000. */
  loadTimeoutMs?: number;
  /**
   * Where the examples run: the directory that holds what they need (the file a `jq` example
   * reads, a git repository); its tags are then checked one at a time, so what changed in it
   * is each run's own. Default: a new empty temporary directory per tag, emptied before each
   * run and removed afterwards.
   */
  cwd?: string;
  /** Count a tag whose example ran with a Problem of its own (`problem`) as not clean. Default false. */
  strict?: boolean;
  /**
   * Where the leaf's threads run (docs/isolation.md): `'process'` (default, as `createHost`'s),
   * an engine process of the host's own; `'thread'`, this process.
   */
  isolation?: 'process' | 'thread';
}

/**
 * The limits an example runs under: an example is a one-line witness, so these are tighter
 * than a host's defaults (docs/faults.md), and memory is looked at forty times a second (a
 * thread's peak memory is what its heartbeats report); in the process tier the engine and all it
 * starts hold at most 256 processes and threads. The breaker is out of reach so that
 * every run of a crashing leaf shows what it does, not a 503.
 */
const CHECK_LIMITS = {
  heapMb: 256,
  externalMb: 256,
  outputBytes: 1024 * 1024,
  heartbeatMs: 25,
  enginePids: 256,
} as const;
/** Default deadline of each run of an example (ms): an example is a one-line witness. */
export const CHECK_RUN_TIMEOUT_MS = 10_000;
/** Tags checked at once, each in a temporary directory of its own. */
const CONCURRENCY = 3;

/**
 * `plurnk-execs check`: loads the one leaf package in `dir` in isolation and reports, per tag,
 * its manifest verdict (every validation error), its probe verdict and latency, its declared
 * example run through the host, and the contract checks (check-tag.ts). Never throws for what
 * the leaf does; throws `invalid-configuration` when `dir` holds no exec package.
 */
export async function checkPackage(dir: string, options: CheckOptions = {}): Promise<CheckReport> {
  const packageDir = resolve(dir);
  const timeoutMs = options.timeoutMs ?? CHECK_RUN_TIMEOUT_MS;
  const graceMs = options.graceMs ?? DEFAULT_GRACE_MS;
  const probeTimeoutMs = options.probeTimeoutMs ?? DEFAULT_PROBE_TIMEOUT_MS;
  const strict = options.strict ?? false;
  const manifest = await checkManifest(packageDir, probeTimeoutMs);
  const { tags, isolation } =
    manifest.discovery === undefined
      ? {
          tags: manifest.tags.map((declared) => summarize(unchecked(declared, 'the package failed discovery'))),
          isolation: null,
        }
      : await checkRuntimes(manifest.discovery, {
          timeoutMs,
          graceMs,
          probeTimeoutMs,
          loadTimeoutMs: options.loadTimeoutMs ?? DEFAULT_LOAD_TIMEOUT_MS,
          cwd: options.cwd === undefined ? undefined : resolve(options.cwd),
          isolation: options.isolation ?? 'process',
        });
  const discovery = {
    verdict: (manifest.error === undefined ? 'pass' : 'fail') as Verdict,
    error: manifest.error ?? null,
    disabledByDefault: [...manifest.disabledByDefault],
    notices: (manifest.discovery?.notices ?? []).map((notice) => notice.message),
  };
  const blocking: ReadonlySet<TagVerdict> = new Set(strict ? ['fault', 'problem'] : ['fault']);
  return {
    schema: 'plurnk-execs/check@2',
    package: { dir: packageDir, name: manifest.packageName },
    clean: discovery.verdict === 'pass' && tags.length > 0 && tags.every((tag) => !blocking.has(tag.verdict)),
    strict,
    isolation,
    discovery,
    tags,
  };
}

/**
 * Boots the host the checks run in and checks every registered tag, a few tags at a time.
 * Threads are retired after two runs, and a run takes the thread that has run most: so a
 * tag's runs, one after another, alternate between a fresh thread and that thread's second
 * run — exactly the pairs the state check compares.
 */
async function checkRuntimes(
  discovery: Discovery,
  options: Required<Omit<CheckOptions, 'cwd' | 'strict'>> & { cwd: string | undefined },
): Promise<{ tags: TagCheck[]; isolation: Isolation }> {
  const boot = options.isolation === 'process' ? bootProcessHost : bootHost;
  const host = await boot(discovery, {
    probeTimeoutMs: options.probeTimeoutMs,
    loadTimeoutMs: options.loadTimeoutMs,
    recycle: { afterRuns: 2 },
    breaker: { crashes: Number.MAX_SAFE_INTEGER },
    limits: { ...CHECK_LIMITS, graceMs: options.graceMs },
  });
  const temporary: string[] = [];
  try {
    // A run's env replaces its thread's: give each run what the thread would have had (in the
    // process tier, a thread of the engine, whose environment is built), plus the marker.
    const packageName = discovery.registry.values().next().value?.packageName ?? '';
    const env = await threadEnv(discovery, packageName, options.isolation);
    const contextOf = (): RunContext => {
      const limits = { timeoutMs: options.timeoutMs, graceMs: options.graceMs };
      if (options.cwd !== undefined) return { host, env, cwd: options.cwd, ownsCwd: false, ...limits };
      const cwd = realpathSync(mkdtempSync(join(tmpdir(), 'plurnk-execs-check-')));
      temporary.push(cwd);
      return { host, env, cwd, ownsCwd: true, ...limits };
    };
    const entries = [...discovery.registry.values()];
    const results: TagCheck[] = new Array(entries.length);
    let next = 0;
    const worker = async () => {
      for (let index = next++; index < entries.length; index = next++)
        results[index] = await checkTag(entries[index]!, host, contextOf());
    };
    // In a cwd of the caller's, one tag at a time: what changed there is then each run's own.
    const concurrency = options.cwd === undefined ? CONCURRENCY : 1;
    await Promise.all(Array.from({ length: Math.min(concurrency, entries.length) }, worker));
    return { tags: results, isolation: host.isolation() };
  } finally {
    await host.close();
    for (const dir of temporary) rmSync(dir, { recursive: true, force: true });
  }
}

async function checkTag(entry: RegistryEntry, host: Host, context: RunContext): Promise<TagCheck> {
  const verdict = host.availability(entry.runtime)!;
  const probe = judgeProbe(verdict);
  if (probe.verdict !== 'pass') {
    const why = probe.verdict === 'fail' ? 'the probe failed' : `unavailable here: ${verdict.detail ?? 'no detail'}`;
    return summarize({ ...unchecked({ tag: entry.runtime, errors: [] }, why), probe });
  }
  const judged = await checkExample(entry, context);
  return summarize({
    tag: entry.runtime,
    verdict: 'ok',
    warning: null,
    manifest: { verdict: 'pass', errors: [] },
    probe,
    ...judged,
  });
}

/**
 * Leaf-owned unavailability ("ruby not on PATH") is information; a probe the host had to
 * judge for the leaf — it threw, overran, crashed, or answered nonsense — is a failure.
 */
function judgeProbe(verdict: Availability): TagCheck['probe'] {
  const judged: Verdict = verdict.available ? 'pass' : verdict.fault !== undefined ? 'fail' : 'skip';
  return {
    verdict: judged,
    available: verdict.available,
    fault: verdict.fault ?? null,
    detail: verdict.detail ?? null,
    probeMs: verdict.probeMs,
  };
}

/** A tag whose runtime checks could not run, and why. */
function unchecked(declared: ManifestCheck['tags'][number], why: string): TagCheck {
  return {
    tag: declared.tag,
    verdict: 'not-run',
    warning: null,
    manifest: { verdict: declared.errors.length === 0 ? 'pass' : 'fail', errors: [...declared.errors] },
    probe: { verdict: 'skip', available: null, fault: null, detail: why, probeMs: null },
    ...notRun(why),
  };
}

/**
 * A tag is a `fault` when any part failed; else it ran with a `problem` when its example ended
 * in a Problem of the leaf's own; else `ok` when its example passed; else nothing ran (`not-run`).
 */
function summarize(check: TagCheck): TagCheck {
  const parts: Verdict[] = [
    check.manifest.verdict,
    check.probe.verdict,
    ...CONTRACT_CHECKS.map((name) => check.checks[name].verdict),
  ];
  const example = check.example.verdict;
  if (parts.includes('fail') || example === 'fail') return { ...check, verdict: 'fault', warning: null };
  if (example === 'problem') return { ...check, verdict: 'problem', warning: problemWarning(check.example) };
  return { ...check, verdict: example === 'pass' ? 'ok' : 'not-run', warning: null };
}

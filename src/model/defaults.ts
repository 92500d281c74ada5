import { readFileSync } from 'node:fs';
import { availableParallelism, totalmem } from 'node:os';
import { join } from 'node:path';
import { DEFAULT_LIMITS } from '../contracts/limits.js';
import { DEFAULT_HOOK_TIMEOUT_MS } from '../discovery/hook-contract.js';

// Every default of the host's options, in one place (docs/host.md lists them; a test pins each).
// A few are owned lower down because a thread or discovery needs them too, and are named here.

/** Default time one probe may take at boot (ms). */
export const DEFAULT_PROBE_TIMEOUT_MS = 3000;

/**
 * Default of `loadTimeoutMs`: how long a thread may take to start, import and construct its
 * leaf before a probe, an effect() call or a run gives up on it (ms). Apart from the probe
 * timeout so that a loaded machine starting many threads at once does not fail fast probes.
 */
export const DEFAULT_LOAD_TIMEOUT_MS = 15_000;

/** Default recycling: a thread that ran a run is replaced. */
export const DEFAULT_RECYCLE = 'each-run';

/**
 * Default of every `limits` field but `rssMb` and `engineMemoryMb` ({@link defaultRssMb},
 * {@link defaultEngineMemoryMb}): owned by contracts/limits.ts,
 * beside the record's type and schema, because a thread falls back to them too.
 */
export { DEFAULT_LIMITS };

/** Default grace after an abort, and between SIGHUP and SIGKILL (ms); `SubprocessExecutor` uses it too. */
export const DEFAULT_GRACE_MS = DEFAULT_LIMITS.graceMs;

/** Default crash-loop breaker: `crashes` within `windowMs` degrade a tag for `cooldownMs`. */
export const DEFAULT_BREAKER = Object.freeze({ crashes: 3, windowMs: 300_000, cooldownMs: 60_000 });

/**
 * Default of `admission.queueTimeoutMs`: how long a run may wait for a thread to start before
 * it fails 503 `host-overloaded` (ms). Long, because a burst under `'each-run'` queues a start per run.
 */
export const DEFAULT_QUEUE_TIMEOUT_MS = 60_000;

/**
 * Default warm spares: `max` spare threads host-wide (each holds an isolate and its leaf's
 * modules, ~8–13 MB here), and `idleMs`, after which an unused tag's wanted spares halve
 * (spare-demand.ts), down to none. 16 covers plurnk-service's default burst of 12 EXECs.
 */
export const DEFAULT_SPARES = Object.freeze({ max: 16, idleMs: 60_000 });

/** Default of `admission.threadStarts`: threads starting at once host-wide, one per core (`os.availableParallelism()`). */
export function defaultThreadStarts(cores = availableParallelism()): number {
  return Math.max(1, cores);
}

/** Default of `admission.threadStartsPerTag`: half the cores, rounded up, so one tag's burst leaves room for the others' starts. */
export function defaultThreadStartsPerTag(cores = availableParallelism()): number {
  return Math.max(1, Math.ceil(cores / 2));
}

/** Default bound on one package's `runtimesModule` hook during discovery (ms). */
export { DEFAULT_HOOK_TIMEOUT_MS };

/**
 * Share of the machine's (or the container's) memory the host process may reach by default:
 * half, so that the engine's hard bound above it (ENGINE_MEMORY_FACTOR) leaves a quarter of the
 * machine to everything else. It was 80% until issue 25: a leaf held 2.8 GB of native memory
 * with nothing below 19 GB to stop it.
 */
const RSS_SHARE = 0.5;

/**
 * Default of `limits.engineMemoryMb`: 1.5 × `rssMb`, and at least 512 MB above it — room above
 * the soft cap for the engine's children, and for the soft cap to act first (a Buffer bomb grows
 * by hundreds of MB between two heartbeats); a tiny `rssMb` (a test's) must still let an engine boot.
 */
const ENGINE_MEMORY_FACTOR = 1.5;
const ENGINE_MEMORY_MARGIN_MB = 512;

const MB = 1024 * 1024;

/** Where the cgroup filesystem is mounted (inside a container: the container's own cgroup). */
const CGROUP_ROOT = '/sys/fs/cgroup';

/**
 * The default host RSS cap (MB): half the memory this process may use — the cgroup limit
 * when the container sets one below the machine's, else the machine's total. `cgroupRoot` and
 * `machineBytes` are for tests: a directory laid out like `/sys/fs/cgroup`, and the machine's memory.
 */
export function defaultRssMb(cgroupRoot = CGROUP_ROOT, machineBytes = totalmem()): number {
  const cgroup = readCgroupLimit(cgroupRoot);
  const total = cgroup !== undefined && cgroup < machineBytes ? cgroup : machineBytes;
  return Math.floor((total * RSS_SHARE) / MB);
}

/** The default of `limits.engineMemoryMb` for a resolved `rssMb`: 1.5 times it, and at least 512 MB more. */
export function defaultEngineMemoryMb(rssMb: number): number {
  return Math.max(Math.floor(rssMb * ENGINE_MEMORY_FACTOR), rssMb + ENGINE_MEMORY_MARGIN_MB);
}

/**
 * The cgroup v2 `memory.max` (or v1 `memory/memory.limit_in_bytes`) under `root`, in bytes;
 * undefined when unset (`max`), unreadable or absent. v1's "unlimited" is a huge number, which
 * the caller's comparison with the machine's memory discards.
 */
function readCgroupLimit(root: string): number | undefined {
  for (const path of [join(root, 'memory.max'), join(root, 'memory', 'memory.limit_in_bytes')]) {
    try {
      const text = readFileSync(path, 'utf8').trim();
      if (/^\d+$/.test(text)) return Number(text);
    } catch {
      // Not this cgroup layout, or no cgroup at all.
    }
  }
  return undefined;
}

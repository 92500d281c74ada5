import { readFileSync } from 'node:fs';
import { totalmem } from 'node:os';

/** Default JS heap cap of each executor thread (MB). */
export const DEFAULT_HEAP_MB = 1024;
/** Default cap on a thread's memory outside its JS heap: Buffers, ArrayBuffers, WebAssembly (MB). */
export const DEFAULT_EXTERNAL_MB = 1024;
/** Default silence after which a thread that started a run is unresponsive (ms). */
export const DEFAULT_UNRESPONSIVE_MS = 30_000;
/** Default bytes of notices one run may emit (their JSON); later notices are dropped and counted. */
export const DEFAULT_NOTICE_BYTES = 1024 * 1024;
/** Default bytes of a run's result Problem (its JSON: detail and extensions); a bigger one is an invalid result. */
export const DEFAULT_PROBLEM_BYTES = 64 * 1024;
/** Default bytes of violation text one run keeps; later violations are counted. */
export const DEFAULT_VIOLATION_BYTES = 64 * 1024;
/** Share of the machine's (or the container's) memory the host process may reach by default. */
const RSS_SHARE = 0.8;

const MB = 1024 * 1024;

/**
 * The default host RSS cap (MB): 80% of the memory this process may use — the cgroup limit
 * when the container sets one below the machine's, else the machine's total.
 */
export function defaultRssMb(): number {
  const cgroup = readCgroupLimit();
  const total = cgroup !== undefined && cgroup < totalmem() ? cgroup : totalmem();
  return Math.floor((total * RSS_SHARE) / MB);
}

/** The cgroup v2 `memory.max` (or v1 `memory.limit_in_bytes`) in bytes; undefined when unset or unreadable. */
function readCgroupLimit(): number | undefined {
  for (const path of ['/sys/fs/cgroup/memory.max', '/sys/fs/cgroup/memory/memory.limit_in_bytes']) {
    try {
      const text = readFileSync(path, 'utf8').trim();
      if (/^\d+$/.test(text)) return Number(text);
    } catch {
      // Not this cgroup layout, or no cgroup at all.
    }
  }
  return undefined;
}

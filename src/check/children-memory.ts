/**
 * The memory of a run's processes, as check measures it where the platform gives it (Linux's
 * /proc): while the run is in flight, every {@link SAMPLE_MS} it walks the processes descending
 * from this one — in the process tier the engine and what it started, in the thread tier the
 * children directly — keeps those whose environment carries the run's check marker, and adds
 * up their peak resident sets (`VmHWM`). A process that lived less than one sample may be
 * missed; one that left this process's tree (orphaned outside a PID namespace) is not seen.
 */
import { readdirSync } from 'node:fs';
import { readProcFile } from '../runtime/proc-table.js';

/**
 * How often a run's processes are sampled (ms). One sample walks every thread of the engine
 * for its children: measured at 2.7 ms with 8 processes below this one on a 2-core machine
 * under a load average of 12, so at 50 ms a run in flight costs about 5% of a core.
 */
const SAMPLE_MS = 50;
/** Processes walked per sample at most. */
const MAX_WALK = 4096;

/** A sampler over one run's processes. */
export interface ChildrenMemory {
  /** Stops sampling: the largest sum of peak resident sets seen, in bytes, or null when no process of the run was seen. */
  stop(): number | null;
}

/** Starts sampling the processes whose environment holds `name=value`. */
export function watchChildrenMemory(name: string, value: string): ChildrenMemory {
  const needle = `\0${name}=${value}\0`;
  let peak: number | null = null;
  const sample = () => {
    let sum: number | null = null;
    for (const pid of descendants(process.pid)) {
      const environ = readProcFile(`/proc/${pid}/environ`);
      if (environ === undefined || !`\0${environ}`.includes(needle)) continue;
      const resident = peakResident(pid);
      if (resident !== undefined) sum = (sum ?? 0) + resident;
    }
    if (sum !== null) peak = Math.max(peak ?? 0, sum);
  };
  const timer = setInterval(sample, SAMPLE_MS);
  timer.unref();
  return {
    stop() {
      clearInterval(timer);
      return peak;
    },
  };
}

/** Every process below `root` (not `root` itself), breadth first, through each thread's `children` list. */
function descendants(root: number): number[] {
  const found: number[] = [];
  const queue = [root];
  for (let next = 0; next < queue.length && found.length < MAX_WALK; next++) {
    const pid = queue[next]!;
    let tasks: string[];
    try {
      tasks = readdirSync(`/proc/${pid}/task`);
    } catch {
      continue; // Gone since it was listed.
    }
    for (const task of tasks) {
      for (const child of (readProcFile(`/proc/${pid}/task/${task}/children`) ?? '').split(' ')) {
        const childPid = Number(child);
        if (child === '' || !Number.isSafeInteger(childPid)) continue;
        found.push(childPid);
        queue.push(childPid);
      }
    }
  }
  return found;
}

/** A process's peak resident set in bytes (`VmHWM`), or undefined when it is gone or a zombie. */
function peakResident(pid: number): number | undefined {
  const match = /^VmHWM:\s+(\d+) kB$/m.exec(readProcFile(`/proc/${pid}/status`) ?? '');
  return match === null ? undefined : Number(match[1]) * 1024;
}

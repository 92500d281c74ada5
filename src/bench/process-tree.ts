import { readProcFile, readProcTable } from '../runtime/proc-table.js';

/** One process under the bench's own, as /proc shows it. */
export interface TreeProcess {
  readonly pid: number;
  readonly ppid: number;
  /** Its command line, spaces between the arguments. */
  readonly command: string;
  /** Resident memory (`VmRSS`), MB. */
  readonly rssMb: number;
  /**
   * Its proportional share of that (`Pss`, /proc/<pid>/smaps_rollup), MB: a page shared by n
   * processes — the node binary and its libraries, ~40 MB each node process maps — counts 1/n.
   */
  readonly pssMb: number;
  /** CPU time it has used, user and system, ms (Linux counts it in ticks of 10 ms). */
  readonly cpuMs: number;
}

/** Linux's clock tick for /proc times (`USER_HZ`): 100 on every architecture Node runs on. */
const TICK_MS = 10;

/**
 * Every living descendant of `root` (the process tier's `unshare`, its namespace's init and the
 * engine, for each engine): what the memory and engines scenarios add up as the cost of the
 * processes a host started. Linux only; none elsewhere.
 */
export function descendantsOf(root: number): TreeProcess[] {
  const table = readProcTable();
  const inside = new Set([root]);
  for (let grew = true; grew;) {
    grew = false;
    for (const row of table.values())
      if (!inside.has(row.pid) && inside.has(row.ppid) && !row.zombie) {
        inside.add(row.pid);
        grew = true;
      }
  }
  inside.delete(root);
  return [...inside].flatMap((pid) => {
    const status = readProcFile(`/proc/${pid}/status`);
    const stat = readProcFile(`/proc/${pid}/stat`);
    if (status === undefined || stat === undefined) return [];
    const rssKb = Number(/^VmRSS:\s*(\d+)/m.exec(status)?.[1] ?? 0);
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    const cpuMs = (Number(fields[11]) + Number(fields[12])) * TICK_MS;
    const command = (readProcFile(`/proc/${pid}/cmdline`) ?? '').split('\0').join(' ').trim();
    return [{ pid, ppid: table.get(pid)!.ppid, command, rssMb: rssKb / 1024, pssMb: pssMb(pid), cpuMs }];
  });
}

/** A process's proportional set size (`Pss` of /proc/<pid>/smaps_rollup), MB; 0 where it cannot be read. */
export function pssMb(pid: number | 'self'): number {
  const rollup = readProcFile(`/proc/${pid}/smaps_rollup`);
  return Number(/^Pss:\s*(\d+)/m.exec(rollup ?? '')?.[1] ?? 0) / 1024;
}

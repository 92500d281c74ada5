import { closeSync, existsSync, mkdirSync, openSync, readFileSync, readSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { CgroupLayout } from './cgroup-layout.js';
import { engineCgroupName, removeCgroup, sweepStaleCgroups } from './cgroup-sweep.js';

// One engine's cgroup: made by the service before the engine starts, joined by the engine's
// setup program as its first act (setup-program.ts), so the engine and everything it starts are
// held by its bounds; read for what it refused and whether the OOM killer ended the engine;
// removed once the engine is gone (what a killed service left, cgroup-sweep.ts removes). v1 keeps
// a directory per hierarchy (memory, pids), v2 one.

/** The bounds an engine's cgroup holds it to. */
export interface CgroupBounds {
  readonly memoryBytes: number;
  readonly pids: number;
}

/** What the cgroup has refused since it was made: forks past its pids bound, OOM kills at its memory bound. */
export interface CgroupRefusals {
  readonly forksRefused: number;
  readonly oomKills: number;
}

/** How long a cgroup's removal waits for its last processes to be reaped, and how often it tries. */
const REMOVE_WITHIN_MS = 2000;
const REMOVE_EVERY_MS = 20;

let made = 0;

/** One engine's cgroup. */
export class EngineCgroup {
  /** The cgroup's directories: the memory one first (v1: memory, pids; v2: the one). */
  private readonly dirs: readonly string[];
  private removal: Promise<void> | undefined;
  /** The open counter files (`pids.events`, the memory one), once first read. */
  private counters: { forks: number | undefined; oom: number | undefined } | undefined;
  /** The last reading, and the time (`performance.now()`) just before it was taken. */
  private last: { readonly at: number; readonly refusals: CgroupRefusals } | undefined;

  /**
   * Makes a cgroup for one engine in `layout` and sets its bounds; throws (the caller reports
   * the layer missing) when the kernel refuses. Leftovers of services that died are removed
   * first, at every engine's boot: a service killed after this one's last sweep is swept by its next.
   */
  constructor(
    private readonly layout: CgroupLayout,
    bounds: CgroupBounds,
  ) {
    const name = engineCgroupName(made++);
    const parents = layout.version === 2 ? [layout.parent] : [layout.memory, layout.pids];
    for (const parent of parents) sweepStaleCgroups(parent);
    this.dirs = parents.map((parent) => join(parent, name));
    try {
      for (const dir of this.dirs) mkdirSync(dir);
      const [memory, pids = memory] = this.dirs as [string, string?];
      if (layout.version === 2) {
        write(memory, 'memory.max', bounds.memoryBytes);
        // Swap would let the engine hold more than its bound: none for it.
        if (existsSync(join(memory, 'memory.swap.max'))) write(memory, 'memory.swap.max', 0);
      } else {
        write(memory, 'memory.limit_in_bytes', bounds.memoryBytes);
        if (existsSync(join(memory, 'memory.memsw.limit_in_bytes')))
          write(memory, 'memory.memsw.limit_in_bytes', bounds.memoryBytes);
      }
      write(pids, 'pids.max', bounds.pids);
    } catch (error) {
      for (const dir of this.dirs) removeCgroup(dir);
      throw error;
    }
  }

  /** The `cgroup.procs` files the setup writes itself into: one per directory. */
  get procsFiles(): string[] {
    return this.dirs.map((dir) => join(dir, 'cgroup.procs'));
  }

  /** The cgroup's name, the last part of every path the engine reads in its `/proc/self/cgroup`. */
  get name(): string {
    return this.dirs[0]!.slice(this.dirs[0]!.lastIndexOf('/') + 1);
  }

  /** How many directories it has (the engine must be in each). */
  get hierarchies(): number {
    return this.dirs.length;
  }

  /** Its bounds as the kernel holds them (it rounds memory to pages), read back; null once it cannot be read. */
  bounds(): CgroupBounds | null {
    const [memory, pids = memory] = this.dirs as [string, string?];
    const memoryBytes = readNumber(join(memory, this.layout.version === 2 ? 'memory.max' : 'memory.limit_in_bytes'));
    const pidsMax = readNumber(join(pids, 'pids.max'));
    return memoryBytes === undefined || pidsMax === undefined ? null : { memoryBytes, pids: pidsMax };
  }

  /**
   * What it refused so far (0 for what cannot be read: a kernel without the counter, a cgroup
   * gone), read through descriptors kept open: re-reading an open cgroup file costs a quarter of
   * opening it anew (measured here). With `maxAgeMs`, the last reading is returned instead when
   * it began at most that long ago: a run that begins just after another ended starts from that
   * run's closing reading rather than paying two more reads (docs/performance.md). A reading
   * reused is never newer than the moment it stands for, so a refusal is never missed; one that
   * came within `maxAgeMs` before the run began may be counted in it.
   */
  refusals(maxAgeMs?: number): CgroupRefusals {
    const now = performance.now();
    if (maxAgeMs !== undefined && this.last !== undefined && now - this.last.at <= maxAgeMs) return this.last.refusals;
    if (this.counters === undefined) {
      const [memory, pids = memory] = this.dirs as [string, string?];
      const events = this.layout.version === 2 ? 'memory.events' : 'memory.oom_control';
      this.counters = { forks: openCounter(join(pids, 'pids.events')), oom: openCounter(join(memory, events)) };
    }
    const refusals = {
      forksRefused: readCounter(this.counters.forks, FORKS_REFUSED),
      oomKills: readCounter(this.counters.oom, OOM_KILLS),
    };
    this.last = { at: now, refusals };
    return refusals;
  }

  /**
   * Removes it once its processes are gone (the engine's namespace is torn down by then, but its
   * last processes may still be being reaped): retried for a while, then left for the sweep of
   * a service booted after this one is gone. Idempotent.
   */
  remove(): Promise<void> {
    this.removal ??= (async () => {
      for (const fd of Object.values(this.counters ?? {})) if (fd !== undefined) closeQuietly(fd);
      this.counters = { forks: undefined, oom: undefined };
      const deadline = Date.now() + REMOVE_WITHIN_MS;
      for (const dir of this.dirs) {
        while (!removeCgroup(dir) && Date.now() < deadline)
          await new Promise((done) => setTimeout(done, REMOVE_EVERY_MS));
      }
    })();
    return this.removal;
  }
}

function write(dir: string, file: string, value: number): void {
  writeFileSync(join(dir, file), String(value));
}

function readNumber(path: string): number | undefined {
  try {
    const text = readFileSync(path, 'utf8').trim();
    return /^\d{1,20}$/.test(text) ? Number(text) : undefined;
  } catch {
    return undefined;
  }
}

function closeQuietly(fd: number): void {
  try {
    closeSync(fd);
  } catch {
    // Closed already: nothing to release.
  }
}

function openCounter(path: string): number | undefined {
  try {
    return openSync(path, 'r');
  } catch {
    return undefined;
  }
}

const counterText = Buffer.alloc(1024);
/** The line of each counter in its flat-keyed file (`pids.events`; `memory.events` or `memory.oom_control`). */
const FORKS_REFUSED = /^max (\d{1,20})$/m;
const OOM_KILLS = /^oom_kill (\d{1,20})$/m;

/**
 * The number `line` finds in a flat-keyed cgroup file read anew from its start (`max 3`,
 * `oom_kill 1`); 0 when absent. Each run reads two counters as it begins and as it ends: the
 * patterns are built once.
 */
function readCounter(fd: number | undefined, line: RegExp): number {
  if (fd === undefined) return 0;
  try {
    const text = counterText.toString('utf8', 0, readSync(fd, counterText, 0, counterText.length, 0));
    return Number(line.exec(text)?.[1] ?? 0);
  } catch {
    return 0;
  }
}

import type { RecyclePolicy } from '../host-types.js';
import { reapGroups } from './reaper.js';
import { WorkerHandle, type WorkerSpec } from './worker-handle.js';

/** How often idle threads' event loops are sampled. */
const IDLE_SAMPLE_MS = 1000;
/** Past this share of wall time busy, an idle thread is doing work nobody asked for. */
const IDLE_BUSY_SHARE = 0.5;
/** Samples in a row past the share before the thread is retired: one busy second may be a leaf's late cleanup. */
const IDLE_BUSY_STRIKES = 2;

/** What a borrowed thread is for: a run counts toward recycling; a probe or effect call does not. */
export type Purpose = 'run' | 'call';

/**
 * The threads of one runtime tag. Every run gets a thread of its own (runs of one tag may be
 * in flight together); under `'each-run'` a thread that ran a run is retired, so no run ever
 * sees an earlier run's `this` or module state. One never-used thread is kept warm as a
 * spare so the next run does not wait ~60–100 ms for a thread to start. The spare a run took
 * is replaced when that run's thread is given back, not while it runs: on a 2-core machine a
 * thread starting beside a run slowed that run ~2× (the recycle benchmark). Retiring and
 * replacing happen a turn after the release, off the path of the EXEC that gave it back.
 */
export class TagWorkers {
  private readonly available: WorkerHandle[] = [];
  private readonly busy = new Set<WorkerHandle>();
  /** Threads lent to runs: their release starts a spare when none is left. */
  private readonly lentToRuns = new Set<WorkerHandle>();
  private readonly retiring = new Set<Promise<void>>();
  /** Idle threads whose last samples were busy, and how many in a row. */
  private readonly busyWhileIdle = new Map<WorkerHandle, number>();
  private readonly idleWatch: NodeJS.Timeout;
  private closed = false;

  constructor(
    private readonly spec: WorkerSpec,
    private readonly recycle: RecyclePolicy,
    private readonly graceMs: number,
  ) {
    this.idleWatch = setInterval(() => this.watchIdle(), IDLE_SAMPLE_MS).unref();
  }

  /**
   * Takes a thread. A run prefers a thread that already ran (only under `'never'` or
   * `afterRuns`, where reuse is the point), then the warm spare, then a new thread; when it
   * gives the thread back, a new spare is started if none is left. A call takes any
   * available thread and starts nothing extra.
   */
  acquire(purpose: Purpose): WorkerHandle {
    if (this.closed) throw new Error(`the threads of ${this.spec.boot.tag} are closed`);
    this.pruneDead();
    const index = this.pickIndex();
    const handle = index === -1 ? new WorkerHandle(this.spec) : this.available.splice(index, 1)[0]!;
    handle.markBusy();
    this.busyWhileIdle.delete(handle);
    this.busy.add(handle);
    if (purpose === 'run') this.lentToRuns.add(handle);
    return handle;
  }

  /**
   * Gives a thread back. It is retired (terminated, and the groups it reported outside any
   * task reaped) when it is poisoned (a call timed out, it was cancelled past grace), dead,
   * used up by the recycle policy, or the tag is closed; otherwise it waits for the next task.
   */
  release(handle: WorkerHandle, outcome: { ranRun: boolean; poisoned: boolean }): Promise<void> {
    this.busy.delete(handle);
    if (outcome.ranRun) handle.runs += 1;
    const retire = this.closed || outcome.poisoned || handle.deathReason !== undefined || this.usedUp(handle);
    if (!retire) {
      handle.markIdle();
      this.available.push(handle);
    }
    const wantsSpare = this.lentToRuns.delete(handle);
    if (!retire && !wantsSpare) return Promise.resolve();
    // Terminating a thread and starting one block the main thread for milliseconds (4–18 ms
    // measured on a busy 2-core machine). A turn later they are off the path of the EXEC that
    // is resolving now; the retirement is tracked from here, so close() still waits for it.
    const later = new Promise<void>((resolve) => setImmediate(resolve)).then(() => {
      if (wantsSpare) this.keepSpare();
    });
    return retire ? this.retire(handle, later, outcome.poisoned) : later;
  }

  /** Terminates every thread and reaps every group they reported; in-flight tasks reject. */
  async close(): Promise<void> {
    this.closed = true;
    clearInterval(this.idleWatch);
    this.busyWhileIdle.clear();
    const all = [...this.available.splice(0), ...this.busy];
    this.busy.clear();
    this.lentToRuns.clear();
    await Promise.all([...all.map((handle) => this.retire(handle, Promise.resolve(), true)), ...this.retiring]);
  }

  /** Thread ids by role, for tests and diagnostics. */
  snapshot(): { available: number[]; busy: number[]; spare: number | undefined } {
    return {
      available: this.available.map((h) => h.threadId),
      busy: [...this.busy].map((h) => h.threadId),
      spare: this.available.find((h) => h.runs === 0)?.threadId,
    };
  }

  /** Index of the thread a task should take: the most-used reusable one first, then a fresh one. */
  private pickIndex(): number {
    let best = -1;
    for (let i = 0; i < this.available.length; i++) {
      const candidate = this.available[i]!;
      if (best === -1 || candidate.runs >= this.available[best]!.runs) best = i;
    }
    return best;
  }

  /** Threads that died while idle (an uncaught error from a leaf's stray timer) are retired, not handed out. */
  private pruneDead(): void {
    for (let i = this.available.length - 1; i >= 0; i--) {
      if (this.available[i]!.deathReason !== undefined)
        void this.retire(this.available.splice(i, 1)[0]!, Promise.resolve(), true);
    }
  }

  /**
   * Retires an idle thread whose event loop stays busy with no task in flight — a leaf's
   * interval or loop left running at import or after its run (65–80 % of a core was measured)
   * — and counts it as a crash of the tag, so a leaf that does it in every thread is degraded.
   * No replacement is started here (it would do the same): the next run starts one.
   */
  private watchIdle(): void {
    for (const handle of [...this.available]) {
      const load = handle.sampleIdleLoad();
      if (load === undefined) continue;
      if (load.utilization <= IDLE_BUSY_SHARE) {
        this.busyWhileIdle.delete(handle);
        continue;
      }
      const strikes = (this.busyWhileIdle.get(handle) ?? 0) + 1;
      this.busyWhileIdle.set(handle, strikes);
      if (strikes < IDLE_BUSY_STRIKES) continue;
      this.busyWhileIdle.delete(handle);
      this.available.splice(this.available.indexOf(handle), 1);
      const percent = Math.round(load.utilization * 100);
      this.spec.onCrash?.(
        `an idle thread kept its event loop ${percent}% busy with no task in flight (${IDLE_BUSY_STRIKES} samples of ${IDLE_SAMPLE_MS}ms past ${IDLE_BUSY_SHARE * 100}%): work the leaf left running; the thread was retired`,
      );
      void this.retire(handle, Promise.resolve(), true);
    }
  }

  private keepSpare(): void {
    if (this.closed || this.available.some((h) => h.runs === 0)) return;
    const spare = new WorkerHandle(this.spec);
    spare.warmUp();
    this.available.push(spare);
  }

  private usedUp(handle: WorkerHandle): boolean {
    if (this.recycle === 'never') return false;
    if (this.recycle === 'each-run') return handle.runs >= 1;
    return handle.runs >= this.recycle.afterRuns;
  }

  /**
   * Terminates `handle` (once `after` settled) and reaps its stray groups — and, when it reported
   * one or ended badly (`sweep`), whatever carries its thread marker; close() waits for it. The
   * wait for the thread to end is bounded by `graceMs` (a thread blocked in the kernel cannot
   * end; it is reaped around and left to end when its call returns), and the reap by `graceMs`
   * plus the SIGKILL settle time, so close() always settles.
   */
  private retire(handle: WorkerHandle, after: Promise<void> = Promise.resolve(), sweep = false): Promise<void> {
    const done = (async () => {
      await after;
      try {
        await handle.terminateWithin(this.graceMs);
      } finally {
        const groups = handle.takeStrayGroups();
        const marker = sweep || groups.length > 0 || handle.refusedStrayGroups > 0 ? handle.marker : undefined;
        await reapGroups(groups, this.graceMs, marker, handle.startedAt);
      }
    })().catch(() => {
      // A group we may not signal (EPERM) must not break retirement; the thread is gone either way.
    });
    this.retiring.add(done);
    void done.finally(() => this.retiring.delete(done));
    return done;
  }
}

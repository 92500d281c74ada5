import type { RecyclePolicy } from '../../model/host-types.js';
import type { ThreadCounts } from '../../model/observe/host-stats.js';
import { ThreadTable } from './thread-table.js';
import { Retirements } from './retirements.js';
import { IDLE_SAMPLE_MS, pickThread, retireReason } from './thread-policy.js';
import { retireBusyIdle, retireDeadIdle } from './idle-threads.js';
import { Handoffs, type Purpose } from './handoffs.js';
import { BurstQuiet } from './burst-quiet.js';
import { SpareDemand } from './spare-demand.js';
import { UNBOUNDED_STARTS, type StartAdmission, type StartWait } from './start-gate.js';
import { WorkerHandle, type WorkerSpec } from './worker-handle.js';

export type { Purpose } from './handoffs.js';

/**
 * The threads of one runtime tag. Every run gets a thread of its own (runs of one tag may be
 * in flight together); under `'each-run'` a thread that ran a run is retired, so no run ever
 * sees an earlier run's `this` or module state. Never-used threads are kept warm as spares so
 * the next runs do not wait ~60–200 ms each for a thread to start: as many as the tag's runs
 * lately needed (spare-demand.ts), within the host's spare budget, none once the tag went
 * unused long enough. Spares a run took are replaced when that run's thread is given back, not
 * while it runs: on a 2-core machine a thread starting beside a run slowed that run ~2× (the
 * recycle benchmark) — unless the run waits for its own thread's start (startedFor). Retiring
 * and replacing happen a turn after the release, off the path of the EXEC that gave it back;
 * spares start side by side, as start slots allow.
 */
export class TagWorkers {
  private readonly threads = new ThreadTable();
  private readonly retiring: Retirements;
  /** Spares holding a unit of the host's spare budget, until a run takes them or they are retired. */
  private readonly budgeted = new Set<WorkerHandle>();
  private readonly demand: SpareDemand;
  /** Threads whose death is not the tag's crash: one probing its package's other tags at boot (probe-together.ts). */
  private readonly uncharged = new WeakSet<WorkerHandle>();
  /** Tasks of the tag waiting in the admission queue. */
  private readonly handoffs = new Handoffs();
  /**
   * Holds a release's retirement and new spares while other runs of the tag run (burst-quiet.ts):
   * a run waiting for its thread to start is not running, and holds nothing back.
   */
  private readonly quiet = new BurstQuiet(() => this.threads.running());
  private readonly idleWatch: NodeJS.Timeout;
  private closed = false;

  constructor(
    /** How every thread of the tag starts (its boot with the host's limits, env, package). */
    readonly spec: WorkerSpec,
    private readonly recycle: RecyclePolicy,
    private readonly admission: StartAdmission = UNBOUNDED_STARTS,
  ) {
    this.demand = new SpareDemand(admission.spares.idleMs);
    this.retiring = new Retirements(spec.boot.tag, spec.boot.limits.graceMs, (handle) => this.unbudget(handle));
    this.idleWatch = setInterval(() => this.watchIdle(), IDLE_SAMPLE_MS).unref();
  }

  /**
   * Takes a thread. A run prefers a thread that already ran (only under `'never'` or
   * `afterRuns`, where reuse is the point), then a warm spare, then a new thread; when it gives
   * the thread back, spares are topped up to the tag's demand. A call takes any available
   * thread and counts toward no demand. A new thread waits for a slot of the start gate first
   * (rejecting as {@link StartGate.enter} does, per `wait`) — unless a thread of the tag frees
   * first, which it then takes (handoffs.ts) — and holds the slot until it answered one warm-up
   * task: until its leaf is loaded.
   */
  async acquire(purpose: Purpose, wait?: StartWait): Promise<WorkerHandle> {
    const idle = this.acquireIdle(purpose);
    if (idle !== undefined) return idle;
    if (purpose === 'call') return this.obtain(purpose, wait);
    this.demand.runStarted();
    try {
      return await this.obtain(purpose, wait);
    } catch (error) {
      this.demand.runEnded();
      throw error;
    }
  }

  /**
   * What {@link acquire} takes first, an idle thread, taken at once: most runs of a warm host
   * find one, and need not wait turns of the microtask queue for it. Undefined, with nothing
   * taken, when none is idle.
   */
  acquireIdle(purpose: Purpose): WorkerHandle | undefined {
    this.assertOpen();
    const handle = this.pickIdle();
    if (handle === undefined) return undefined;
    if (purpose === 'run') this.demand.runStarted();
    return this.lendIdle(handle, purpose);
  }

  private async obtain(purpose: Purpose, wait?: StartWait): Promise<WorkerHandle> {
    // A thread of the tag that is free before a start slot is (one given back, a new spare) comes at once.
    const admitted = await this.handoffs.admit(purpose, (leave) =>
      this.admission.gate.enter(this.spec.boot.tag, { ...wait, signals: [...(wait?.signals ?? []), leave] }),
    );
    if ('handle' in admitted) return admitted.handle;
    const release = admitted.slot;
    if (this.closed) release();
    this.assertOpen();
    // A thread may have been given back while this task waited.
    const idle = this.pickIdle();
    if (idle !== undefined) {
      const lent = this.lendIdle(idle, purpose);
      release();
      return lent;
    }
    return this.startedFor(this.lend(this.start(release, 1), purpose), purpose);
  }

  /**
   * The one run of the tag in flight (no other holds a thread or waits for one), lent a thread
   * that is still starting and that its recycle policy retires after the run, with no spare
   * left: one spare starts beside it now, in a start slot left, rather than after the release
   * (back-to-back runs under `'each-run'` then keep two starts going, the bound the load
   * benchmark measures, instead of one at a time).
   */
  private startedFor(handle: WorkerHandle, purpose: Purpose): WorkerHandle {
    if (purpose !== 'run' || handle.loaded) return handle;
    const usedUp = retireReason({ closed: false, poisoned: false, dead: false, runs: handle.runs + 1 }, this.recycle);
    if (usedUp !== undefined && this.demand.runs === 1 && this.threads.spares().length === 0) this.topUpSpares(1);
    return handle;
  }

  /**
   * Gives a thread back. It is retired (terminated, and the groups it reported outside any
   * task reaped) when it is poisoned (a call timed out, it was cancelled past grace), dead,
   * used up by the recycle policy, or the tag is closed; otherwise it waits for the next task.
   */
  release(handle: WorkerHandle, outcome: { ranRun: boolean; poisoned: boolean }): Promise<void> {
    const entry = this.threads.get(handle);
    if (entry?.lentToRun === true) this.demand.runEnded();
    // Taken out and put back last: the idle order is the order threads were given back.
    this.threads.delete(handle);
    if (outcome.ranRun) handle.runs += 1;
    const facts = {
      closed: this.closed,
      poisoned: outcome.poisoned,
      dead: handle.deathReason !== undefined,
      runs: handle.runs,
    };
    const retire = retireReason(facts, this.recycle);
    if (retire === undefined) {
      handle.markIdle();
      this.threads.set(handle, { state: 'idle', lentToRun: false });
      this.handOver(handle);
    }
    // A spare is started later only where one is missing now: most releases leave nothing to do,
    // and waiting for the quiet cost each of them a turn of the main thread's loop.
    const wantsSpare = entry?.lentToRun === true && this.threads.sparesMissing(this.demand.wanted()) > 0;
    if (retire === undefined && !wantsSpare) {
      if (entry?.lentToRun === true) this.quiet.runEnded();
      return Promise.resolve();
    }
    // Terminating a thread and starting one block the main thread for milliseconds: they wait for
    // the tag's other runs in flight (burst-quiet.ts); the retirement is tracked from here, so
    // close() still waits for it.
    const later = this.quiet.wait().then(() => {
      if (wantsSpare) this.topUpSpares();
    });
    if (entry?.lentToRun === true) this.quiet.runEnded();
    return retire === undefined ? later : this.retiring.retire(handle, retire, later, outcome.poisoned);
  }

  /** Terminates every thread and reaps every group they reported; in-flight tasks reject. */
  async close(): Promise<void> {
    this.closed = true;
    clearInterval(this.idleWatch);
    this.quiet.flush();
    const all = [...this.threads.inState('idle'), ...this.threads.inState('busy')];
    this.threads.clear();
    for (const handle of all) void this.retiring.retire(handle, 'host-closed', Promise.resolve(), true);
    await this.retiring.settled();
  }

  /**
   * Whether `handle`'s death counts as a crash of the tag (the breaker's): not while it probes
   * other tags of the package at boot, whose faults are theirs (each is probed again alone).
   */
  chargeCrashes(handle: WorkerHandle, charged: boolean): void {
    if (charged) this.uncharged.delete(handle);
    else this.uncharged.add(handle);
  }

  /** The tag's threads by state, for `host.stats()`. */
  counts(): ThreadCounts {
    return this.threads.counts(this.retiring.size);
  }

  /** Thread ids by role, for tests and diagnostics. */
  snapshot(): { available: number[]; busy: number[]; spare: number | undefined } {
    const idle = this.threads.inState('idle');
    return {
      available: idle.map((h) => h.threadId),
      busy: this.threads.inState('busy').map((h) => h.threadId),
      spare: idle.find((h) => h.runs === 0)?.threadId,
    };
  }

  /** The idle thread the policy picks for a task (threads that died idle retired first), or undefined. */
  private pickIdle(): WorkerHandle | undefined {
    retireDeadIdle(this.threads, this.retiring);
    const idle = this.threads.inState('idle');
    return idle[pickThread(idle)];
  }

  /** Lends idle thread `handle` for `purpose`. */
  private lendIdle(handle: WorkerHandle, purpose: Purpose): WorkerHandle {
    // A run that has to wait for its spare to finish starting wanted one more spare.
    if (purpose === 'run' && handle.runs === 0 && handle.state === 'starting') this.demand.late();
    return this.startedFor(this.lend(handle, purpose), purpose);
  }

  /** Marks `handle` lent out for `purpose`. */
  private lend(handle: WorkerHandle, purpose: Purpose): WorkerHandle {
    this.unbudget(handle);
    handle.markBusy();
    this.threads.set(handle, { state: 'busy', lentToRun: purpose === 'run' });
    return handle;
  }

  /**
   * Starts a thread under a start slot, warmed up `warmUps` times (default: a spare's). The
   * slot is given back once the warm-up answered (the leaf loaded, or failed to) or the thread
   * died, and at the latest after `loadTimeoutMs`: a leaf that spins at import holds no slot
   * longer than its own bound.
   */
  private start(release: () => void, warmUps?: number): WorkerHandle {
    let handle: WorkerHandle;
    try {
      const onCrash = (reason: string) => {
        if (!this.uncharged.has(handle)) this.spec.onCrash?.(reason);
      };
      handle = new WorkerHandle({ ...this.spec, onCrash });
    } catch (error) {
      release();
      throw error;
    }
    const bound = setTimeout(release, this.admission.loadTimeoutMs).unref();
    void handle.warmUp(warmUps).finally(() => {
      clearTimeout(bound);
      release();
      // A spare's slot is free: more spares may start now, side by side with the others (a
      // thread started for a run is followed by its spares when the run gives it back).
      if (this.budgeted.has(handle)) this.topUpSpares();
    });
    return handle;
  }

  private assertOpen(): void {
    if (this.closed) throw new Error(`the threads of ${this.spec.boot.tag} are closed`);
  }

  /** Every {@link IDLE_SAMPLE_MS}: spares past the demand, and idle threads that misbehave, are retired. */
  private watchIdle(): void {
    this.shrinkSpares();
    retireBusyIdle(this.threads, this.retiring, this.spec.onCrash);
  }

  /**
   * Starts spares until the tag has as many as its demand wants (thread-policy.ts), each while a
   * start slot is free now and the host's spare budget allows: a spare never waits in the queue
   * ahead of a task. Called when a run's thread is given back and when a start finishes (and
   * for at `most` one, beside a lone run's start).
   */
  private topUpSpares(most = Infinity): void {
    if (this.closed) return;
    for (let missing = Math.min(most, this.threads.sparesMissing(this.demand.wanted())); missing > 0; missing--) {
      if (!this.admission.spares.budget.tryTake()) return;
      const release = this.admission.gate.tryEnter(this.spec.boot.tag, true);
      if (release === undefined) {
        this.admission.spares.budget.give();
        return;
      }
      const spare = this.start(release);
      this.budgeted.add(spare);
      this.threads.set(spare, { state: 'idle', lentToRun: false });
      this.handOver(spare);
    }
  }

  /** Lends idle `handle` to the oldest task waiting in the admission queue, if one waits. */
  private handOver(handle: WorkerHandle): void {
    const waiter = this.handoffs.next();
    if (waiter !== undefined) waiter.take(this.lend(handle, waiter.purpose));
  }

  /** Retires the never-used spares past what the tag's demand wants now (it decays while the tag is unused). */
  private shrinkSpares(): void {
    const spares = this.threads.spares();
    const excess = -this.threads.sparesMissing(this.demand.wanted());
    for (const handle of spares.slice(0, Math.max(0, excess))) {
      this.threads.delete(handle);
      void this.retiring.retire(handle, 'spare-decay');
    }
  }

  private unbudget(handle: WorkerHandle): void {
    if (this.budgeted.delete(handle)) this.admission.spares.budget.give();
  }
}

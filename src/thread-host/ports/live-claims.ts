/** One open claim to processes: a task's or a thread's marker and the groups it was granted. */
interface LiveClaim {
  readonly marker: string;
  readonly groups: ReadonlySet<number>;
  /** Takes the reports already queued on the claim's channel, so a group reported before now is in `groups`. */
  readonly drain: (() => void) | undefined;
}

/** What the live tasks and threads of this process own, read at one moment. */
export interface LiveOwners {
  /** Every `PLURNK_EXECS_RUN` value a live task (run, probe, effect) or live thread gives its children. */
  readonly markers: ReadonlySet<string>;
  /** Every process group a live task or thread reported and was granted. */
  readonly groups: ReadonlySet<number>;
}

/**
 * Every claim still open in this process, whichever host opened it: a claim opens with its task
 * or thread and closes once what it left was reaped. A claim never closed keeps its processes
 * out of the engine's namespace sweep (a leak), never the other way round.
 */
const open = new Set<LiveClaim>();

/** Records a claim as live; the returned function closes it (idempotent). */
export function holdClaim(claim: LiveClaim): () => void {
  open.add(claim);
  return () => void open.delete(claim);
}

/**
 * The markers and groups of every live claim, after taking the reports queued on their
 * channels: a group a live run's leaf reported before this call counts, even if its message had
 * not been handled yet. A drain that throws is skipped (its claim still counts).
 */
export function liveOwners(): LiveOwners {
  const markers = new Set<string>();
  const groups = new Set<number>();
  for (const claim of [...open]) {
    try {
      claim.drain?.();
    } catch {
      // The claim's channel is closed or broken: what it holds already still counts.
    }
  }
  for (const claim of open) {
    markers.add(claim.marker);
    for (const pgid of claim.groups) groups.add(pgid);
  }
  return { markers, groups };
}

import { markTicksSinceBoot, startTicksOf, vetGroupLeader } from '../../runtime/group-leader.js';
import { holdClaim } from './live-claims.js';

/** Past this many recorded owners, those whose group leader is gone are forgotten. */
const PRUNE_AT = 256;
/** Distinct groups counted as started per claims; past it the count stops (a leaf forging reports of gone groups). */
const COUNT_AT = 65_536;

/**
 * Who owns each process group a thread reported, process-wide (a group is the kernel's, not
 * one host's): keyed by pgid and its leader's start time, so a pgid the kernel reused later is
 * a new key.
 */
const owners = new Map<string, GroupClaims>();

/** The groups one task (or one thread, between tasks) may have reaped for it. */
export interface GroupClaims {
  /** Accepted groups, in the order they were reported. */
  readonly groups: ReadonlySet<number>;
  /** How many reports were refused: the task's marker is swept for when there was any. */
  readonly refused: number;
  /** How many distinct groups were reported that were this owner's or already gone when judged: the processes it started. */
  readonly started: number;
  /** The first pgid reported, whatever its verdict: the first process the task started (process-sweep.ts `firstPid`). */
  readonly first: number | undefined;
  /**
   * Records a report: undefined when `pgid` is now this owner's, else why it was refused —
   * null when the group is simply gone (no process left in it: no sign of forgery).
   */
  claim(pgid: number): string | null | undefined;
  /** Empties {@link groups} (the caller reaps them); ownership stays until the group is gone. */
  take(): number[];
  /**
   * Ends the claim's life (idempotent): until then its marker and groups are a live owner's, which
   * the engine's namespace sweep never kills (live-claims.ts). Call it once what the task or thread
   * left was reaped.
   */
  close(): void;
}

/**
 * Opens the claims of one task or thread whose children carry `marker` (`PLURNK_EXECS_RUN`),
 * and which began now, or at `since` (a mark taken before the task was posted: the thread may
 * start a child before the host gets here). A report a leaf sends is only a pgid, and any pgid
 * can be sent: the host would SIGHUP another run's group, or any group the user owns. A group
 * is accepted only when its leader carries this task's marker (unguessable: only the task's own
 * children inherit it), or descends from the host process, started after the task began, and
 * carries no other task's marker; an unmarked one belongs to whichever task claimed it first.
 * The claims are live from now until {@link GroupClaims.close}; `drain` takes the reports
 * already queued on their channel (the namespace sweep calls it before it reads who owns what).
 */
export function openGroupClaims(
  marker: string,
  drain?: () => void,
  since: () => number | undefined = markTicksSinceBoot(),
): GroupClaims {
  return new TaskClaims(marker, drain, since);
}

/** One task's or thread's claims: a class, for a per-run object with getters (output-budget.ts says why). */
class TaskClaims implements GroupClaims {
  readonly groups = new Set<number>();
  refused = 0;
  first: number | undefined;
  readonly close: () => void;
  /** Groups counted as started: a group already gone when its report is judged was started too (a child that exited at once). */
  private readonly counted = new Set<number>();

  constructor(
    private readonly marker: string,
    drain: (() => void) | undefined,
    /** When the task began, in ticks since boot (group-leader.ts `markTicksSinceBoot`). */
    private readonly sinceTicks: () => number | undefined,
  ) {
    this.close = holdClaim({ marker, groups: this.groups, drain });
  }

  get started(): number {
    return this.counted.size;
  }

  claim(pgid: number): string | null | undefined {
    if (this.first === undefined && Number.isSafeInteger(pgid) && pgid > 1) this.first = pgid;
    if (this.groups.has(pgid)) return undefined;
    const why = judge(this, pgid, this.marker, this.sinceTicks());
    if (why === undefined) this.groups.add(pgid);
    else this.refused += 1;
    if ((why === undefined || why === null) && this.counted.size < COUNT_AT) this.counted.add(pgid);
    return why;
  }

  take(): number[] {
    const taken = [...this.groups];
    this.groups.clear();
    return taken;
  }
}

function judge(
  claims: GroupClaims,
  pgid: number,
  marker: string,
  sinceTicks: number | undefined,
): string | null | undefined {
  const leader = vetGroupLeader(pgid, sinceTicks, marker);
  if (!leader.ok) return leader.gone ? null : leader.why;
  if (leader.marker !== undefined && leader.marker !== marker)
    return 'its leader carries another task’s marker: it is another run’s';
  const key = `${pgid}:${leader.startTicks}`;
  const owner = owners.get(key);
  if (owner !== undefined && owner !== claims) return 'another task reported it first';
  if (owners.size >= PRUNE_AT) prune();
  owners.set(key, claims);
  return undefined;
}

/** Forgets owners whose group leader is gone (or whose pgid now leads another process). */
function prune(): void {
  for (const key of owners.keys()) {
    const [pgid, start] = key.split(':').map(Number);
    if (startTicksOf(pgid!) !== start) owners.delete(key);
  }
}

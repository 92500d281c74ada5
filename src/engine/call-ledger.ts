/** One exec or effect frame the service sent its engine and the engine has not acknowledged yet. */
interface Unacked {
  readonly id: number;
  readonly what: string;
  /** When it was sent, on the watchdog's clock (engine-watchdog.ts `freeMs`). */
  readonly sentAt: number;
}

/**
 * What one engine owes the service for the exec and effect frames it was sent: an
 * acknowledgement within `ackMs` of each, in the order they were sent, and, for a call with a
 * deadline, its answer by then. Times are on the watchdog's clock, which counts only time the
 * service's event loop was free to read (engine-watchdog.ts), so a service that stalls itself
 * never blames its engine. The engine's main thread reads its channel in order and acknowledges
 * every such frame in that order (ack-batch.ts): an acknowledgement that skips a frame means
 * another reader took that frame off the channel (any thread of the engine can read its fd),
 * and one that names a frame not awaiting one is forged. Either is a corrupt channel; a frame
 * never acknowledged, or a call not answered by its deadline, an unresponsive engine.
 */
export class CallLedger {
  private readonly unacked: Unacked[] = [];
  private head = 0;
  private readonly pending = new Set<number>();
  private readonly deadlines = new Map<number, { readonly what: string; readonly by: number }>();

  constructor(private readonly ackMs: number) {}

  /** Frame `id` (`what`, e.g. `run 3 (sh)`) was sent at `now`; with `deadlineMs`, its answer is due by `now + deadlineMs`. */
  sent(id: number, what: string, now: number, deadlineMs?: number): void {
    this.unacked.push({ id, what, sentAt: now });
    this.pending.add(id);
    if (deadlineMs !== undefined) this.deadlines.set(id, { what, by: now + deadlineMs });
  }

  /** An `ack` frame's ids: undefined when each was awaiting its acknowledgement, in order; else what is wrong. */
  acked(ids: readonly number[]): string | undefined {
    for (const id of ids) {
      if (!this.pending.has(id))
        return `an acknowledgement of frame ${id}, which awaits none (never sent, or acknowledged before)`;
      const skipped = this.unacked[this.head]!;
      if (skipped.id !== id)
        return `frame ${skipped.id} (${skipped.what}) never reached the engine: it acknowledged frame ${id}, sent after it (another reader took it off the channel)`;
      this.pending.delete(id);
      this.head += 1;
    }
    if (this.head > 64 && 2 * this.head > this.unacked.length) {
      this.unacked.splice(0, this.head);
      this.head = 0;
    }
    return undefined;
  }

  /** Call `id` was answered: its deadline no longer holds. */
  answered(id: number): void {
    this.deadlines.delete(id);
  }

  /** At `now`: why the engine is unresponsive — the oldest frame not acknowledged in time, or a call past its deadline — or undefined. */
  overdue(now: number): string | undefined {
    const oldest = this.unacked[this.head];
    if (oldest !== undefined && now - oldest.sentAt >= this.ackMs)
      return `frame ${oldest.id} (${oldest.what}) was not acknowledged within ${this.ackMs}ms (limits.unresponsiveMs): it never reached the engine's main thread`;
    for (const [id, deadline] of this.deadlines)
      if (now >= deadline.by)
        return `frame ${id} (${deadline.what}) was not answered by its deadline, though the engine bounds it (the service's own deadline)`;
    return undefined;
  }
}

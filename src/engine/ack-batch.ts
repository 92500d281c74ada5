/**
 * Inside the engine: the ids of the exec and effect frames its main thread read since its last
 * heartbeat, in the order it read them. Each heartbeat carries them (engine-entry.ts), so an
 * acknowledgement costs no frame of its own: one frame more per EXEC cost the service a fifth
 * of its time per no-op EXEC. The service holds an engine to them: a frame it sent and never
 * heard acknowledged was read off the channel by someone else (a leaf of the engine can read
 * its fd), and the engine is killed as unresponsive (call-ledger.ts).
 */
export class AckBatch {
  private ids: number[] = [];

  /** Frame `id` was read. */
  add(id: number): void {
    this.ids.push(id);
  }

  /** The ids read since the last call, or undefined when there are none. */
  take(): number[] | undefined {
    if (this.ids.length === 0) return undefined;
    const ids = this.ids;
    this.ids = [];
    return ids;
  }
}

/** One acknowledgement frame: the ids of the exec and effect frames the engine received, in order. */
export interface AckFrame {
  t: 'ack';
  ids: number[];
}

/**
 * Inside the engine: gathers the ids of the exec and effect frames its main thread received in
 * one event-loop turn into one `ack` frame, sent at the end of that turn (`setImmediate`) or
 * before any other frame the engine sends (`flush`), so an acknowledgement always reaches the
 * service before anything else about the same call. The service holds an engine to them: a
 * frame it sent and never heard acknowledged was read off the channel by someone else (a leaf
 * of the engine can read its fd), and the engine is killed as unresponsive (call-ledger.ts).
 */
export class AckBatch {
  private ids: number[] = [];
  private scheduled = false;
  private readonly atTurnEnd = () => {
    this.scheduled = false;
    this.flush();
  };

  constructor(private readonly send: (frame: AckFrame) => void) {}

  /** Acknowledges frame `id`, with the others of this turn. */
  add(id: number): void {
    this.ids.push(id);
    if (!this.scheduled) {
      this.scheduled = true;
      setImmediate(this.atTurnEnd);
    }
  }

  /** Sends what is gathered, if anything. */
  flush(): void {
    if (this.ids.length === 0) return;
    const ids = this.ids;
    this.ids = [];
    this.send({ t: 'ack', ids });
  }
}

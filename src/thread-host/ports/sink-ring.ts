import {
  newSinkRingBuffer,
  RING_CHUNK,
  RING_DOORBELL,
  RING_MARK,
  RING_MASK,
  RING_NOTHING,
  RING_READ,
  RING_UNITS,
  RING_WAITING,
  RING_WRITTEN,
  ringViews,
} from '../../contracts/sink-ring.js';
import { awaitNextTurn } from '../../runtime/loop-turn.js';
import { guardListener } from '../../runtime/guard-listener.js';
import { RingPace, ringPacing, type RingPacing } from './ring-pace.js';

/** Doorbells beyond one per record read before the ring is called flooded. */
const IDLE_DOORBELLS = 1024;

/** Where one reading of the ring stopped: after a mark, at its `limit`, at the thread's place, or at a record that cannot be one. */
type Stop = 'mark' | 'limit' | 'end' | 'corrupt';

/**
 * The host's end of a thread's sink ring (contracts/sink-ring.ts): made with the thread, read
 * by each of its runs' sink ports in turn. The ring is the thread's memory: every length is
 * checked against what the thread says it wrote, and a record that cannot be one stops reading.
 */
export class SinkRing {
  /** The memory, handed to the thread with its channels (ThreadOpen `ring`). */
  readonly buffer = newSinkRingBuffer();
  private readonly header: Int32Array;
  private readonly units: Uint16Array;
  /** The host's place: every unit before it was read. */
  private place = 0;
  /** Text records read since {@link takeRecords}. */
  private records = 0;
  /** Units the last {@link read} took, marks included. */
  consumed = 0;

  constructor() {
    const views = ringViews(this.buffer)!;
    this.header = views.header;
    this.units = views.units;
  }

  /** Text records read since the last call. */
  takeRecords(): number {
    const records = this.records;
    this.records = 0;
    return records;
  }

  /**
   * Reads from the host's place: the text of each record goes to `text` (one call a write), up
   * to a mark (read too), `limit` records, or the thread's place. A stop at the thread's place
   * that finds it moved on meanwhile says 'limit': there is more, and no doorbell will ring.
   */
  read(limit: number, text: (chunk: string) => void): Stop {
    const units = this.units;
    let place = this.place;
    this.consumed = 0;
    let left = this.unread();
    if (left < 0 || left > RING_UNITS) return 'corrupt';
    let stop: Stop = 'end';
    let taken = 0;
    while (left > 0) {
      if (taken >= limit) {
        stop = 'limit';
        break;
      }
      const length = units[place & RING_MASK]!;
      if (length === RING_MARK) {
        place = (place + 1) | 0;
        stop = 'mark';
        break;
      }
      if (length > RING_CHUNK || length >= left) {
        stop = 'corrupt';
        break;
      }
      text(this.decode((place + 1) & RING_MASK, length));
      place = (place + 1 + length) | 0;
      left -= 1 + length;
      taken += 1;
      this.records += 1;
    }
    this.consumed = (place - this.place) | 0;
    this.moveTo(place);
    if (stop === 'end' && this.unread() !== 0) return 'limit';
    return stop;
  }

  /** Units the thread wrote past the host's place (negative, or past the ring, only if it lied). */
  unread(): number {
    return (Atomics.load(this.header, RING_WRITTEN) - this.place) | 0;
  }

  /** The text of `length` units from `at`, wrapping at the ring's end. */
  private decode(at: number, length: number): string {
    const units = this.units;
    if (length === 1) return String.fromCharCode(units[at]!);
    const end = at + length;
    if (end <= RING_UNITS) return String.fromCharCode.apply(null, units.subarray(at, end) as unknown as number[]);
    return (
      String.fromCharCode.apply(null, units.subarray(at) as unknown as number[]) +
      String.fromCharCode.apply(null, units.subarray(0, end - RING_UNITS) as unknown as number[])
    );
  }

  /** Skips all the thread wrote so far: what follows a run's end is no run's. */
  discard(): void {
    this.moveTo(Atomics.load(this.header, RING_WRITTEN));
  }

  private moveTo(place: number): void {
    this.place = place;
    Atomics.store(this.header, RING_READ, place);
    // A waiting thread waits for half the ring (sink-ring-writer.ts): woken before that, it would only wait again.
    if (
      Atomics.load(this.header, RING_WAITING) !== 0 &&
      ((Atomics.load(this.header, RING_WRITTEN) - place) | 0) <= RING_UNITS / 2
    )
      Atomics.notify(this.header, RING_READ);
  }
}

/** What a run's sink port does with what it reads through a {@link RingOrder}. */
export interface RingTarget {
  /** One message from the port (no doorbell), in the leaf's order. */
  readonly apply: (message: unknown) => void;
  /** The text of one short write, in the leaf's order. */
  readonly text: (chunk: string) => void;
  /** Counts `records` against the run's budget; false once it is spent (the port is closed then). */
  readonly admit: (records: number) => boolean;
  /** The ring cannot be read on (a record that cannot be one, or doorbells without writes). */
  readonly broken: (detail: string) => void;
}

/** One run's reading of its thread's ring, in order with the messages on its sink port. */
export interface RingOrder {
  /** A message from the port: a doorbell reads on; any other is applied where its mark is. */
  receive(message: unknown): void;
  /** Applies every message received and reads the ring to its end, marks and all (the port was drained first). */
  drain(): void;
  /** Stops reading, and skips all the thread wrote so far. */
  close(): void;
}

/**
 * Reads `ring` for one run. A message from the port waits in arrival order for its mark: the
 * ring's text before the mark is applied first. Ring writes and messages together take at most
 * the `pacing`'s share at a time (ring-pace.ts); the rest waits for the next turn or, once the
 * run's writes outrun the pacing's rate, for a timer. A message with no mark left in the ring
 * was posted by a leaf on its own and is applied where it came.
 */
export function orderByRing(ring: SinkRing, target: RingTarget, pacing: RingPacing = ringPacing()): RingOrder {
  const share = pacing.share;
  const pace = Number.isFinite(pacing.perMs) ? new RingPace(pacing.perMs, pacing.burst) : undefined;
  let open = true;
  // Messages received and not applied yet, oldest first: each waits for its mark.
  const waiting: unknown[] = [];
  let head = 0;
  // Marks read whose message is the oldest waiting (or has not come yet).
  let owed = 0;
  let scheduled = false;
  let doorbells = 0;
  let records = 0;
  // Records the last read took.
  let taken = 0;
  const fail = (detail: string): false => {
    open = false;
    target.broken(detail);
    return false;
  };
  // Reads at most `limit` records; false once the run's port is closed.
  const read = (limit: number): Stop | false => {
    const stop = ring.read(limit, target.text);
    taken = ring.takeRecords();
    records += taken;
    pace?.spend(taken);
    if (stop === 'corrupt') return fail("the thread's sink ring holds a record that cannot be one");
    return target.admit(taken) ? stop : (open = false);
  };
  const applyNext = () => {
    const message = waiting[head];
    waiting[head++] = undefined;
    if (head === waiting.length) waiting.length = head = 0;
    if (message !== RING_NOTHING) target.apply(message);
  };
  // Applies ring writes and waiting messages in the leaf's order, up to `share` of them; true when it stopped at the share.
  const serve = (share: number): boolean => {
    while (open && share > 0) {
      if (owed > 0) {
        if (head === waiting.length) return false;
        owed -= 1;
        applyNext();
        share -= 1;
        continue;
      }
      const stop = read(share);
      if (stop === false) return false;
      share -= taken;
      if (stop === 'mark') owed += 1;
      else if (stop === 'limit') return true;
      else {
        // The end of the ring: a message still waiting had no mark there, and goes where it came.
        if (head === waiting.length) return false;
        applyNext();
        share -= 1;
      }
    }
    return open;
  };
  const readOn = guardListener(() => {
    scheduled = false;
    if (serve(pace === undefined ? share : Math.min(share, pace.allowance()))) later();
  });
  const later = () => {
    if (scheduled || !open) return;
    scheduled = true;
    const wait = pace?.wait(share) ?? 0;
    if (wait === 0) awaitNextTurn(readOn);
    else setTimeout(readOn, wait);
  };
  return {
    receive(message) {
      if (!open) return;
      if (message === RING_DOORBELL) {
        // The thread rings only for a write after all it wrote before was read: never more often than once a record.
        if (++doorbells > records + IDLE_DOORBELLS)
          fail(`the thread rang its sink ring's doorbell ${doorbells} times for ${records} writes`);
        else if (!scheduled) readOn();
        return;
      }
      waiting.push(message);
      if (!scheduled) readOn();
    },
    drain() {
      // What was written when the drain began, marks and all; a thread still writing is not chased.
      let left = ring.unread();
      while (open) {
        if (owed > 0) {
          if (head < waiting.length) {
            owed -= 1;
            applyNext();
            continue;
          }
          // The thread went between a mark and its message.
          owed = 0;
        }
        if (left <= 0) {
          while (open && head < waiting.length) applyNext();
          return;
        }
        const stop = read(Infinity);
        if (stop === false) return;
        left = stop === 'end' ? 0 : left - ring.consumed;
        if (stop === 'mark') owed += 1;
      }
    },
    close() {
      open = false;
      ring.discard();
    },
  };
}

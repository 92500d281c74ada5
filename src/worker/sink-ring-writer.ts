import {
  RING_CHUNK,
  RING_MARK,
  RING_MASK,
  RING_READ,
  RING_UNITS,
  RING_WAITING,
  RING_WRITTEN,
  ringViews,
} from '../contracts/sink-ring.js';

// Taken before any leaf loads, as the thread's other globals are: a leaf that replaces Atomics'
// functions does not change how its sinks write.
const { load, store, wait } = Atomics;

/** How long one wait for room lasts before the thread looks again (the host wakes it sooner when it reads). */
const WAIT_MS = 20;

/**
 * The thread's end of its sink ring (contracts/sink-ring.ts): one for the thread's life, used
 * by each run's sinks in turn. A record is in the host's reach once {@link text} returns. A full
 * ring makes the writer wait until the host has read some: a flood is held to the pace at which
 * the host applies it, and its thread sleeps meanwhile instead of taking a core from every other
 * run.
 */
export class SinkRingWriter {
  private readonly header: Int32Array;
  private readonly units: Uint16Array;
  private written: number;

  /** Undefined when `buffer` is no ring: the thread then posts every call on its port. */
  static open(buffer: unknown, doorbell: () => void): SinkRingWriter | undefined {
    const views = ringViews(buffer);
    return views === undefined ? undefined : new SinkRingWriter(views.header, views.units, doorbell);
  }

  private constructor(
    header: Int32Array,
    units: Uint16Array,
    private readonly doorbell: () => void,
  ) {
    this.header = header;
    this.units = units;
    this.written = load(header, RING_WRITTEN);
  }

  /** Whether a write of `chunk` goes in the ring: text of 1 to {@link RING_CHUNK} units. */
  takes(chunk: string): boolean {
    return chunk.length > 0 && chunk.length <= RING_CHUNK;
  }

  /** Appends `chunk` (one the ring {@link takes}); rings the doorbell when the host had read everything before it. */
  text(chunk: string): void {
    const length = chunk.length;
    const start = this.reserve(1 + length);
    const units = this.units;
    units[start & RING_MASK] = length;
    for (let i = 0; i < length; i++) units[(start + 1 + i) & RING_MASK] = chunk.charCodeAt(i);
    this.publish(start, 1 + length);
    // After the publish: a host that stored its place before this load reads on by itself
    // (it looks at the thread's place after storing its own); one that had stopped here is told.
    if (load(this.header, RING_READ) === start) this.doorbell();
  }

  /** Marks the place of the message about to be posted on the sink port. */
  mark(): void {
    const start = this.reserve(1);
    this.units[start & RING_MASK] = RING_MARK;
    this.publish(start, 1);
  }

  private publish(start: number, count: number): void {
    this.written = (start + count) | 0;
    store(this.header, RING_WRITTEN, this.written);
  }

  /** Where `need` units start, once the ring has room for them. */
  private reserve(need: number): number {
    const start = this.written;
    let read = load(this.header, RING_READ);
    if (((start - read) | 0) + need <= RING_UNITS) return start;
    // Full: wait until the host has read half of it, not for each share it reads (a wake-up each).
    store(this.header, RING_WAITING, 1);
    while (((start - read) | 0) + Math.max(need, RING_UNITS / 2) > RING_UNITS) {
      wait(this.header, RING_READ, read, WAIT_MS);
      read = load(this.header, RING_READ);
    }
    store(this.header, RING_WAITING, 0);
    return start;
  }
}

// A thread's sink ring: shared memory the thread appends its short writes to, and the host reads.
// A message on the sink port costs each side ~1–1.5 µs (clone, queue lock, wake-up, event), far
// more than a one-character write itself; a flood of them held both cores. A write the ring took
// is in memory the host reads, so it has left the thread as surely as a posted message: a thread
// that blocks or dies after it loses nothing.
//
// Layout: an Int32Array header, then RING_UNITS UTF-16 code units. The thread moves
// RING_WRITTEN, the host RING_READ, each a count of units that wraps as an int32; a unit's place
// is its count & RING_MASK. A record is one unit of length, then that many units of text: a
// write of 1..RING_CHUNK units to the channel of the last plain write (the rule of a SinkWrite).
// A length of 0 is a mark: the next message the thread posts on its sink port goes here, so the
// host applies the ring and the port in the order the leaf made its calls.

/** UTF-16 units the ring holds (a power of two). */
export const RING_UNITS = 1 << 15;
/** A count of units, masked, is a place in the ring. */
export const RING_MASK = RING_UNITS - 1;
/** The longest write the ring takes, in UTF-16 units; a longer one is posted as a message. */
export const RING_CHUNK = 1024;
/** A record's length unit that is no text: the next message on the port goes here. */
export const RING_MARK = 0;

/** Header slots (Int32Array indexes). */
export const RING_WRITTEN = 0;
export const RING_READ = 1;
/** Non-zero while the thread waits for room: the host wakes it when it reads. */
export const RING_WAITING = 2;
const HEADER_SLOTS = 4;
export const RING_HEADER_BYTES = HEADER_SLOTS * Int32Array.BYTES_PER_ELEMENT;

/**
 * The message the thread posts on its sink port when a record went into a ring the host had read
 * to its end (nobody reads it until told); while the host is behind, it reads on by itself.
 */
export const RING_DOORBELL = 0;
/** The message posted at a mark when the call meant for it could not be cloned: nothing is applied there. */
export const RING_NOTHING = 1;

/** A ring's memory, for the host to make and hand to its thread (ThreadOpen `ring`). */
export function newSinkRingBuffer(): SharedArrayBuffer {
  return new SharedArrayBuffer(RING_HEADER_BYTES + RING_UNITS * Uint16Array.BYTES_PER_ELEMENT);
}

/** The header and units of `buffer`, or undefined when it is no ring's size. */
export function ringViews(buffer: unknown): { header: Int32Array; units: Uint16Array } | undefined {
  if (!(buffer instanceof SharedArrayBuffer)) return undefined;
  if (buffer.byteLength !== RING_HEADER_BYTES + RING_UNITS * Uint16Array.BYTES_PER_ELEMENT) return undefined;
  return {
    header: new Int32Array(buffer, 0, HEADER_SLOTS),
    units: new Uint16Array(buffer, RING_HEADER_BYTES, RING_UNITS),
  };
}

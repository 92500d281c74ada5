/** Bytes of one WebAssembly page. */
export const PAGE_BYTES = 65_536;

const MEMORY_SECTION = 5;
const HAS_MAX = 0x01;
const IS_64 = 0x04;

/** A module whose memories now fit the cap, one that asks for too much, or bytes that are not a module. */
export type BoundedModule =
  { kind: 'bounded'; bytes: Uint8Array<ArrayBuffer> } | { kind: 'too-large'; detail: string } | { kind: 'malformed' };

/**
 * Bounds every linear memory a binary module defines to `capPages` (§ DESIGN: worker
 * `resourceLimits` do not cover wasm memory). A memory whose initial size exceeds the cap is
 * refused; one with no maximum, or a larger one, gets the cap as its maximum, so `memory.grow`
 * past it fails inside the module (-1) as the wasm spec says. Only the memory section is
 * rewritten; every other section is copied byte for byte. Imported memories need no bound:
 * the leaf provides none, so such a module fails to link.
 */
export function boundMemory(bytes: Uint8Array, capPages: number): BoundedModule {
  try {
    if (bytes.length < 8 || readU32(bytes, 0) !== 0x6d736100) return { kind: 'malformed' };
    const parts: Uint8Array[] = [bytes.subarray(0, 8)];
    let at = 8;
    while (at < bytes.length) {
      const id = bytes[at]!;
      const size = readLeb(bytes, at + 1);
      const start = size.next;
      const end = start + size.value;
      if (end > bytes.length) return { kind: 'malformed' };
      if (id !== MEMORY_SECTION) {
        parts.push(bytes.subarray(at, end));
      } else {
        const payload = boundMemorySection(bytes.subarray(start, end), capPages);
        if (typeof payload === 'string') return { kind: 'too-large', detail: payload };
        parts.push(Uint8Array.of(MEMORY_SECTION), writeLeb(payload.length), payload);
      }
      at = end;
    }
    return { kind: 'bounded', bytes: concat(parts) };
  } catch {
    return { kind: 'malformed' };
  }
}

/** The memory section with every maximum at most `capPages`, or why it cannot be. */
function boundMemorySection(section: Uint8Array, capPages: number): Uint8Array | string {
  const count = readLeb(section, 0);
  const out: number[] = [...writeLeb(count.value)];
  let at = count.next;
  for (let index = 0; index < count.value; index++) {
    const flags = section[at]!;
    if (flags & IS_64) return `memory ${index} is a 64-bit memory, which is not supported`;
    const min = readLeb(section, at + 1);
    at = min.next;
    let max = capPages;
    if (flags & HAS_MAX) {
      const declared = readLeb(section, at);
      at = declared.next;
      max = Math.min(declared.value, capPages);
    }
    if (min.value > capPages) {
      return `memory ${index} starts at ${min.value} pages (${mib(min.value)} MiB); the cap is ${capPages} pages (${mib(capPages)} MiB)`;
    }
    out.push(flags | HAS_MAX, ...writeLeb(min.value), ...writeLeb(max));
  }
  if (at !== section.length) throw new RangeError('memory section has trailing bytes');
  return Uint8Array.from(out);
}

function mib(pages: number): string {
  return String((pages * PAGE_BYTES) / 1_048_576);
}

/** An unsigned LEB128 u32 at `at`: its value and the offset after it. */
function readLeb(bytes: Uint8Array, at: number): { value: number; next: number } {
  let value = 0;
  for (let shift = 0, i = at; shift < 35; shift += 7, i++) {
    const byte = bytes[i];
    if (byte === undefined) throw new RangeError('truncated LEB128');
    value += (byte & 0x7f) * 2 ** shift;
    if ((byte & 0x80) === 0) return { value, next: i + 1 };
  }
  throw new RangeError('LEB128 longer than a u32');
}

function writeLeb(value: number): Uint8Array {
  const out: number[] = [];
  do {
    let byte = value % 128;
    value = Math.floor(value / 128);
    if (value > 0) byte |= 0x80;
    out.push(byte);
  } while (value > 0);
  return Uint8Array.from(out);
}

function readU32(bytes: Uint8Array, at: number): number {
  return (bytes[at]! | (bytes[at + 1]! << 8) | (bytes[at + 2]! << 16) | (bytes[at + 3]! << 24)) >>> 0;
}

function concat(parts: Uint8Array[]): Uint8Array<ArrayBuffer> {
  const out = new Uint8Array(parts.reduce((sum, part) => sum + part.length, 0));
  let at = 0;
  for (const part of parts) {
    out.set(part, at);
    at += part.length;
  }
  return out;
}

/**
 * A run's output allowance in UTF-8 bytes, shared by every channel. Both sides of the thread
 * keep one: the worker so a flood never reaches the port, the host so a leaf that gets past
 * the worker's copy is still held to the cap.
 */
export interface OutputBudget {
  /** Bytes accepted so far. */
  readonly used: number;
  /** True once a write did not fit. */
  readonly exceeded: boolean;
  /**
   * The part of `chunk` that fits: all of it, or — for the write that crosses the cap — its
   * longest prefix that ends on a character boundary, after which every later chunk yields ''.
   */
  take(chunk: string): string;
}

/** A budget of `limitBytes` UTF-8 bytes. */
export function createOutputBudget(limitBytes: number): OutputBudget {
  return new ByteBudget(limitBytes);
}

/**
 * One budget per run on each side of the thread: a class, not an object literal with getters
 * over a closure. Each such literal made a map of its own in V8's old space, which held the
 * run's closures (and so its whole context) through every young-generation collection: they
 * were promoted and filled the old space, at every EXEC. The same holds for every per-run
 * object of the host (group-claims.ts, control-port.ts, sink-port.ts).
 */
class ByteBudget implements OutputBudget {
  used = 0;
  exceeded = false;

  constructor(private readonly limitBytes: number) {}

  take(chunk: string): string {
    if (this.exceeded) return '';
    const size = Buffer.byteLength(chunk, 'utf8');
    if (this.used + size <= this.limitBytes) {
      this.used += size;
      return chunk;
    }
    this.exceeded = true;
    const kept = utf8Prefix(chunk, this.limitBytes - this.used);
    this.used += Buffer.byteLength(kept, 'utf8');
    return kept;
  }
}

/** The longest prefix of `text` whose UTF-8 encoding fits in `maxBytes`, never cutting a character. */
export function utf8Prefix(text: string, maxBytes: number): string {
  if (maxBytes <= 0) return '';
  if (Buffer.byteLength(text, 'utf8') <= maxBytes) return text;
  const bytes = Buffer.from(text, 'utf8');
  let cut = maxBytes;
  // Back off over continuation bytes (10xxxxxx) so the cut falls before a character's first byte.
  while (cut > 0 && (bytes[cut]! & 0xc0) === 0x80) cut -= 1;
  return bytes.subarray(0, cut).toString('utf8');
}

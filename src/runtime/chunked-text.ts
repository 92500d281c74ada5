/**
 * Text that arrives in many small chunks (a run's writes), kept as an array of the small ones,
 * joined every {@link JOIN_EVERY} chunks, instead of a `+=` per chunk. Each `+=` on a long string
 * makes a rope node that outlives every young-generation collection until the text is read, so
 * a run of 200,000 one-character writes had the host's main thread copying megabytes of rope at
 * each scavenge (a third of its time in garbage collection, pauses of 20–140 ms under load, every
 * other run waiting). Joined in blocks, the survivors are a few flat strings. A large chunk is
 * appended as it is (one rope node for kilobytes), never copied.
 */
export class ChunkedText {
  private readonly small: string[] = [];
  private text = '';
  private chars = 0;

  /** Characters appended so far. */
  get length(): number {
    return this.chars;
  }

  append(chunk: string): void {
    if (chunk === '') return;
    this.chars += chunk.length;
    if (chunk.length >= LARGE_CHUNK) {
      this.join();
      this.text += chunk;
      return;
    }
    this.small.push(chunk);
    if (this.small.length >= JOIN_EVERY) this.join();
  }

  /** The whole text. */
  toString(): string {
    this.join();
    return this.text;
  }

  private join(): void {
    if (this.small.length === 0) return;
    this.text += this.small.length === 1 ? this.small[0]! : this.small.join('');
    this.small.length = 0;
  }
}

/** Small chunks joined at once: a block of one-character writes becomes one flat string of a KiB. */
const JOIN_EVERY = 1024;
/** A chunk this long is appended as it is: its rope node is small beside it. */
const LARGE_CHUNK = 1024;

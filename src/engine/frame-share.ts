/**
 * How much of one turn of the event loop one frame channel may take (frame-channel.ts), in the
 * units a thread channel counts (thread-host/ports/thread-port.ts): one per frame, one per sink
 * call a batch carries, one more per {@link CHARS_PER_UNIT} of text. A 64 KiB read from the
 * engine's pipe holds about a dozen batches of one-character writes, ~1,500 calls: handled in
 * one go, they held the service's main thread for milliseconds, while every other engine's
 * pipe, timer and port waited. Past the share, the rest of the pipe waits for the next turn.
 */
export const FRAME_SHARE = 128;
/** Characters of a frame's text that cost one more unit of {@link FRAME_SHARE}. */
export const CHARS_PER_UNIT = 4096;

/** A `writes` call's chunks: one unit each, as if each were its own call, and their text. */
function chunkCost(chunks: unknown[]): number {
  let chars = 0;
  for (const chunk of chunks) if (typeof chunk === 'string') chars += chunk.length;
  return chunks.length + Math.floor(chars / CHARS_PER_UNIT);
}

/** What `value`, one frame read, costs of a turn's share: a sink batch its calls and their text, any other frame one unit. */
export function frameCost(value: unknown): number {
  if (typeof value !== 'object' || value === null || !('calls' in value) || !Array.isArray(value.calls)) return 1;
  let cost = 1;
  for (const entry of value.calls as unknown[]) {
    const call: unknown = Array.isArray(entry) ? entry[1] : undefined;
    const chunk: unknown = Array.isArray(call) ? call[2] : undefined;
    if (Array.isArray(chunk)) cost += chunkCost(chunk);
    else cost += 1 + (typeof chunk === 'string' ? Math.floor(chunk.length / CHARS_PER_UNIT) : 0);
  }
  return cost;
}

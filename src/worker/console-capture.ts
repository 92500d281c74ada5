import { utf8Prefix } from '../contracts/output-budget.js';

/** Console output captured in a thread since the last report. */
export interface ConsoleReport {
  /** Every byte written, counted (UTF-8). */
  readonly bytes: number;
  /** The first `keepBytes` of it. */
  readonly text: string;
}

/** The capture installed in this thread. */
export interface ConsoleCapture {
  /** What was written since the last call (undefined when nothing was), and starts over. */
  take(): ConsoleReport | undefined;
}

type Write = (chunk: unknown, encoding?: unknown, callback?: unknown) => boolean;

/**
 * Captures everything a leaf prints instead of writing to a declared channel
 * (§executor-forbidden): `console.*`, `process.stdout.write`, `process.stderr.write` and
 * `process._rawDebug`. In a worker these would otherwise be forwarded to the host process's
 * own streams; here they are counted, the first `keepBytes` kept, and never printed. Every
 * console method writes through the two stream objects, so patching their `write` catches
 * `console.log`, `console.table`, `console.trace` and Console instances built on them alike.
 * Output written straight to a file descriptor (`fs.writeSync(1, …)`) is not seen.
 */
export function captureConsole(keepBytes: number): ConsoleCapture {
  let bytes = 0;
  let text = '';
  const record = (chunk: unknown) => {
    const piece =
      typeof chunk === 'string'
        ? chunk
        : chunk instanceof Uint8Array
          ? Buffer.from(chunk).toString('utf8')
          : String(chunk);
    const size = Buffer.byteLength(piece, 'utf8');
    if (bytes < keepBytes) text += utf8Prefix(piece, keepBytes - bytes);
    bytes += size;
  };
  for (const stream of [process.stdout, process.stderr]) {
    const write: Write = (chunk, encoding, callback) => {
      record(chunk);
      // Keep the stream contract: the callback runs once the write is "done".
      const done = typeof encoding === 'function' ? encoding : callback;
      if (typeof done === 'function') queueMicrotask(() => (done as () => void)());
      return true;
    };
    stream.write = write as typeof stream.write;
  }
  (process as unknown as { _rawDebug: (...parts: unknown[]) => void })._rawDebug = (...parts) =>
    record(`${parts.map(String).join(' ')}\n`);
  return {
    take() {
      if (bytes === 0) return undefined;
      const report = { bytes, text };
      bytes = 0;
      text = '';
      return report;
    },
  };
}

import type { CliIo } from './cli-io.js';

/**
 * Prints channel chunks as they arrive: `stdout` and `stderr` go through untouched to the
 * terminal's own streams; every other channel goes to stdout with each line labelled by its
 * channel name, so interleaved channels stay readable.
 */
export function createChannelPrinter(io: CliIo): { write(channel: string, chunk: string): void; end(): void } {
  const atLineStart = new Map<string, boolean>();
  let lastLabelled: string | undefined;
  return {
    write(channel, chunk) {
      if (channel === 'stdout') return void io.stdout.write(chunk);
      if (channel === 'stderr') return void io.stderr.write(chunk);
      let text = '';
      for (const piece of chunk.split(/(?<=\n)/)) {
        if (atLineStart.get(channel) !== false) text += `${channel}│ `;
        text += piece;
        atLineStart.set(channel, piece.endsWith('\n'));
      }
      lastLabelled = channel;
      io.stdout.write(text);
    },
    end() {
      // Finish a labelled line that did not end in a newline, so the status line starts clean.
      if (lastLabelled !== undefined && atLineStart.get(lastLabelled) === false) io.stdout.write('\n');
    },
  };
}

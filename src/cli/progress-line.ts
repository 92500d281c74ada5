/** Boots shorter than this print no progress at all. */
const QUIET_MS = 500;

/**
 * A progress line on stderr for long waits. Nothing is printed for a short wait; past
 * {@link QUIET_MS} a terminal gets one line redrawn in place, anything else gets the line
 * once (so logs stay readable). `done()` clears a redrawn line.
 */
export function startProgress(stderr: NodeJS.WritableStream, isTTY: boolean, describe: () => string): { done(): void } {
  let printed = false;
  const timer = setInterval(() => {
    if (isTTY) {
      stderr.write(`\r\x1b[K${describe()}`);
      printed = true;
    } else if (!printed) {
      stderr.write(`${describe()}\n`);
      printed = true;
    }
  }, QUIET_MS);
  timer.unref();
  return {
    done() {
      clearInterval(timer);
      if (isTTY && printed) stderr.write('\r\x1b[K');
    },
  };
}

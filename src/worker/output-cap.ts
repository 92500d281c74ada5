import type { ExecArgs } from '../contracts/exec-args.js';
import { createOutputBudget } from '../contracts/output-budget.js';

/**
 * Holds a run's `write` to `limitBytes` UTF-8 bytes across every channel, on the worker's
 * side of the port: the write that crosses the cap is cut at a character boundary, so the
 * kept output is an intact prefix; every later write is dropped here and never posted, and
 * `onExceeded` is called once. Chunks that are not strings pass through for the host to
 * refuse as violations.
 */
export function capWrites(write: ExecArgs['write'], limitBytes: number, onExceeded: () => void): ExecArgs['write'] {
  const budget = createOutputBudget(limitBytes);
  return (channel, chunk, mimetype) => {
    if (typeof chunk !== 'string') return write(channel, chunk, mimetype);
    if (budget.exceeded) return;
    const kept = budget.take(chunk);
    if (kept !== '') write(channel, kept, mimetype);
    if (budget.exceeded) onExceeded();
  };
}

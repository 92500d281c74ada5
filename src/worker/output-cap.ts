import type { ExecArgs } from '../contracts/exec-args.js';
import { measureNotice } from '../contracts/notice.js';
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

/**
 * Holds a run's `emit` to `limitBytes` of notices (the host's `limits.noticeBytes`), on the
 * worker's side of the port: a notice that would pass it is dropped before it is posted (60
 * notices of 8 MiB crossing the port stalled a host for seconds), and `violate` is told once.
 * The host counts the same way and holds a leaf that gets past this copy all the same.
 */
export function capEmits(
  emit: ExecArgs['emit'],
  limitBytes: number,
  violate: (message: string) => void,
): ExecArgs['emit'] {
  let used = 0;
  let dropped = false;
  return (notice) => {
    const bytes = measureNotice(notice);
    if (used + bytes > limitBytes) {
      if (!dropped)
        violate(`emit: notices past limits.noticeBytes ${limitBytes} are dropped (the first was ${bytes} bytes)`);
      dropped = true;
      return;
    }
    used += bytes;
    emit(notice);
  };
}

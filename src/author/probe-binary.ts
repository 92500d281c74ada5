import type { RuntimeAvailability } from '../contracts/effect.js';
import { runVersionCommand } from './run-version-command.js';

/** How long a version line may be before it is cut for a probe detail. */
const DETAIL_MAX = 120;

/**
 * Default probe of a subprocess runtime: runs `<binary> --version` in its own process group
 * under `signal` (an abort kills the group) and reports the first output line as the detail.
 * A binary that cannot be found is unavailable with `<binary> not found on PATH`.
 */
export async function probeBinary(binary: string, signal?: AbortSignal): Promise<RuntimeAvailability> {
  if (signal?.aborted) return { available: false, detail: `probe of ${binary} was cancelled before it ran` };
  const outcome = await runVersionCommand(binary, signal ? { signal } : {});
  switch (outcome.kind) {
    case 'cancelled':
      return { available: false, detail: `probe of ${binary} was cancelled` };
    case 'failed':
      if (outcome.error.code === 'ENOENT') return { available: false, detail: `${binary} not found on PATH` };
      if (outcome.error.code === 'EACCES') return { available: false, detail: `${binary} is not executable (EACCES)` };
      return { available: false, detail: `${binary} could not start: ${outcome.error.message}` };
    case 'exited':
      if (outcome.code === 0 && outcome.line) return { available: true, detail: outcome.line.slice(0, DETAIL_MAX) };
      return { available: true, detail: `${binary} found (--version exited ${outcome.code ?? 'by signal'})` };
  }
}

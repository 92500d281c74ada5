import { spawn } from 'node:child_process';
import type { RuntimeAvailability } from '../contracts/effect.js';
import { signalGroup } from '../contracts/process-group.js';
import { reportProcessGroup } from './process-groups.js';

/** How long a version line may be before it is cut for a probe detail. */
const DETAIL_MAX = 120;

/**
 * Default probe of a subprocess runtime: runs `<binary> --version` in its own process group
 * under `signal` (an abort kills the group) and reports the first output line as the detail.
 * A binary that cannot be found is unavailable with `<binary> not found on PATH`.
 */
export function probeBinary(binary: string, signal?: AbortSignal): Promise<RuntimeAvailability> {
  if (signal?.aborted) return Promise.resolve({ available: false, detail: `probe of ${binary} was cancelled before it ran` });
  return new Promise((resolve) => {
    const child = spawn(binary, ['--version'], { detached: true, stdio: ['ignore', 'pipe', 'pipe'] });
    if (child.pid !== undefined) reportProcessGroup(child.pid);
    let output = '';
    const collect = (chunk: Buffer) => {
      if (output.length < 4096) output += chunk.toString('utf8');
    };
    child.stdout.on('data', collect);
    child.stderr.on('data', collect);
    const onAbort = () => {
      if (child.pid !== undefined) signalGroup(child.pid, 'SIGKILL');
    };
    signal?.addEventListener('abort', onAbort, { once: true });
    let settled = false;
    const settle = (verdict: RuntimeAvailability) => {
      if (settled) return;
      settled = true;
      signal?.removeEventListener('abort', onAbort);
      resolve(verdict);
    };
    child.on('error', (error: NodeJS.ErrnoException) => {
      if (error.code === 'ENOENT') settle({ available: false, detail: `${binary} not found on PATH` });
      else if (error.code === 'EACCES') settle({ available: false, detail: `${binary} is not executable (EACCES)` });
      else settle({ available: false, detail: `${binary} could not start: ${error.message}` });
    });
    child.on('close', (code) => {
      if (signal?.aborted) return settle({ available: false, detail: `probe of ${binary} was cancelled` });
      const line = output.split(/\r?\n/).find((l) => l.trim() !== '')?.trim();
      if (code === 0 && line) return settle({ available: true, detail: line.slice(0, DETAIL_MAX) });
      settle({ available: true, detail: `${binary} found (--version exited ${code ?? 'by signal'})` });
    });
  });
}

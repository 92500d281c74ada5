import { spawn } from 'node:child_process';
import { signalGroup } from '../runtime/process-group.js';
import { reportProcessGroup } from './process-groups.js';

/** How much version output is kept while waiting for the command to end. */
const OUTPUT_MAX = 4096;

/** How a version command ended: its exit and first output line, or why it never ran to the end. */
export type VersionOutcome =
  | { kind: 'exited'; code: number | null; killedBy: NodeJS.Signals | null; line: string }
  | { kind: 'failed'; error: NodeJS.ErrnoException }
  | { kind: 'cancelled' };

/**
 * Runs a cheap version command (`<binary> --version`) for a probe: in its own process group
 * (reported through the process-group seam), with `stdin` or /dev/null, under `signal` — an
 * abort kills the group. Resolves the first non-empty output line (stdout, then stderr).
 */
export function runVersionCommand(
  binary: string,
  options: { args?: readonly string[]; stdin?: string; signal?: AbortSignal } = {},
): Promise<VersionOutcome> {
  const { args = ['--version'], stdin, signal } = options;
  if (signal?.aborted) return Promise.resolve({ kind: 'cancelled' });
  return new Promise((resolve) => {
    const child = spawn(binary, [...args], {
      detached: true,
      stdio: [stdin === undefined ? 'ignore' : 'pipe', 'pipe', 'pipe'],
    });
    if (child.pid !== undefined) reportProcessGroup(child.pid);
    let output = '';
    const collect = (chunk: Buffer) => {
      if (output.length < OUTPUT_MAX) output += chunk.toString('utf8');
    };
    child.stdout?.on('data', collect);
    child.stderr?.on('data', collect);
    if (stdin !== undefined && child.stdin) {
      child.stdin.on('error', () => {}); // a version command need not read its stdin
      child.stdin.end(stdin);
    }
    const onAbort = () => {
      if (child.pid !== undefined) signalGroup(child.pid, 'SIGKILL');
    };
    signal?.addEventListener('abort', onAbort, { once: true });
    let settled = false;
    const settle = (outcome: VersionOutcome) => {
      if (settled) return;
      settled = true;
      signal?.removeEventListener('abort', onAbort);
      resolve(outcome);
    };
    child.on('error', (error) => settle({ kind: 'failed', error }));
    child.on('close', (code, killedBy) => {
      if (signal?.aborted) return settle({ kind: 'cancelled' });
      const line =
        output
          .split(/\r?\n/)
          .find((l) => l.trim() !== '')
          ?.trim() ?? '';
      settle({ kind: 'exited', code, killedBy, line });
    });
  });
}

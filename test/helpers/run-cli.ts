import { spawn } from 'node:child_process';
import { fileURLToPath } from 'node:url';

/** The built CLI, as `npx plurnk-execs` runs it. */
export const CLI = fileURLToPath(new URL('../../dist/cli/main.js', import.meta.url));
/** The repository root: its node_modules holds the built-in leaves (workspace links). */
export const REPO = fileURLToPath(new URL('../..', import.meta.url));

/** A running CLI process: its output so far, and its end. */
export interface CliRun {
  pid: number;
  stdout(): string;
  stderr(): string;
  /** Resolves once `stream` has printed `text` (checked on every chunk, no polling); rejects if the CLI exits first. */
  seen(stream: 'stdout' | 'stderr', text: string): Promise<void>;
  done: Promise<{ code: number | null; stdout: string; stderr: string }>;
  kill(signal: NodeJS.Signals): void;
}

/** Starts `plurnk-execs <argv>` in `cwd` with `input` (if any) on stdin. */
export function startCli(
  argv: string[],
  options: { cwd?: string; input?: string; env?: NodeJS.ProcessEnv } = {},
): CliRun {
  const child = spawn(process.execPath, [CLI, ...argv], {
    cwd: options.cwd ?? REPO,
    env: options.env ?? process.env,
    stdio: ['pipe', 'pipe', 'pipe'],
  });
  const out = { stdout: '', stderr: '' };
  const seen = (stream: 'stdout' | 'stderr', text: string) =>
    new Promise<void>((resolve, reject) => {
      const check = () => {
        if (!out[stream].includes(text)) return;
        child[stream].off('data', check);
        resolve();
      };
      child[stream].on('data', check);
      child.once('close', () =>
        reject(
          new Error(`the CLI exited before printing ${JSON.stringify(text)} on ${stream}: ${JSON.stringify(out)}`),
        ),
      );
      check();
    });
  child.stdout.setEncoding('utf8').on('data', (chunk: string) => (out.stdout += chunk));
  child.stderr.setEncoding('utf8').on('data', (chunk: string) => (out.stderr += chunk));
  child.stdin.end(options.input ?? '');
  const done = new Promise<{ code: number | null; stdout: string; stderr: string }>((resolve) => {
    child.on('close', (code) => resolve({ code, stdout: out.stdout, stderr: out.stderr }));
  });
  return {
    pid: child.pid!,
    stdout: () => out.stdout,
    stderr: () => out.stderr,
    seen,
    done,
    kill: (signal) => child.kill(signal),
  };
}

/** Runs `plurnk-execs <argv>` to the end. */
export function runCli(argv: string[], options: { cwd?: string; input?: string; env?: NodeJS.ProcessEnv } = {}) {
  return startCli(argv, options).done;
}

import { spawn, spawnSync } from 'node:child_process';

// What this machine gives an engine (a PID namespace, the init's program, the setup's shell,
// the sandbox's layers) is learned by running small commands, once per service process. Each
// detection is written once, as a generator that yields the commands it needs — several at a
// time where they do not depend on each other — and returns its verdict from what they did. The
// host runs a detection synchronously where it is first needed (building an engine's command),
// or ahead, concurrently, while discovery reads the installed packages (`prepareEngineStart`):
// the same commands, the same verdict, off the boot's path.

/** One command a detection runs. */
export interface ProbeRun {
  readonly file: string;
  readonly args: readonly string[];
}

/** What a detection learns of one run: its exit status (null when it did not exit), its stderr. */
export interface ProbeResult {
  readonly status: number | null;
  readonly stderr: string;
}

/** A detection: yields the commands to run together, gets their results in the same order. */
export type Probe<T> = Generator<readonly ProbeRun[], T, ProbeResult[]>;

/** No probe runs longer than this: a command that hangs counts as failed. */
const PROBE_TIMEOUT_MS = 10_000;

/** Runs `probe`'s commands one by one, blocking. */
export function runProbeSync<T>(probe: Probe<T>): T {
  let step = probe.next([]);
  while (!step.done) {
    const results = step.value.map(({ file, args }) => {
      const ran = spawnSync(file, args, {
        encoding: 'utf8',
        stdio: ['ignore', 'ignore', 'pipe'],
        timeout: PROBE_TIMEOUT_MS,
      });
      return { status: ran.status, stderr: ran.stderr || ran.error?.message || '' };
    });
    step = probe.next(results);
  }
  return step.value;
}

/** Runs `probe`'s commands without blocking: those it yields together, at once. */
export async function runProbe<T>(probe: Probe<T>): Promise<T> {
  let step = probe.next([]);
  while (!step.done) step = probe.next(await Promise.all(step.value.map(runOne)));
  return step.value;
}

function runOne({ file, args }: ProbeRun): Promise<ProbeResult> {
  return new Promise((resolve) => {
    const child = spawn(file, args, { stdio: ['ignore', 'ignore', 'pipe'], timeout: PROBE_TIMEOUT_MS });
    let stderr = '';
    let failed = '';
    child.stderr.setEncoding('utf8').on('data', (chunk: string) => void (stderr += chunk));
    child.on('error', (error) => void (failed = error.message));
    child.on('close', (status) => resolve({ status, stderr: stderr || failed }));
  });
}

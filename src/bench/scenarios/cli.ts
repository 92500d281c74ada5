import { spawn } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { discover } from '../../discovery/discover.js';
import { summarize, target, type BenchContext, type BenchRow, type ScenarioReport } from '../bench-report.js';
import { sampleInterleaved } from '../sample.js';

/** The built CLI, as `npx plurnk-execs` runs it. */
const CLI = fileURLToPath(new URL('../../cli/main.js', import.meta.url));

/** Issue 28: `plurnk-execs exec sh 'echo hi'` takes at most this long, wall time. */
const EXEC_BOUND_MS = 1000;

/**
 * Scenario `cli` (issue 28). The CLI's `exec` end to end, as a person at a shell runs it:
 * `plurnk-execs exec sh 'echo hi'` in the current directory (a Node process that boots a host
 * for the one tag, runs it, closes the host and exits), in each tier, against a bare
 * `node -e ''` started the same way in the same rounds. Issue 28's bound is on the default
 * tier's wall time, not on the ratio: a second is what a person waits.
 */
export async function benchCli(context: BenchContext): Promise<ScenarioReport> {
  const installed = await discover({ cwd: context.cwd });
  const sh = installed.registry.get('sh');
  if (sh === undefined) {
    throw new Error(
      `cli: no leaf installed under ${context.cwd} declares sh, which this scenario runs with \`plurnk-execs exec sh\`; run it where one is installed`,
    );
  }
  const plan = context.quick ? { rounds: 2, perRound: 2, warmup: 1 } : { rounds: 5, perRound: 2, warmup: 1 };
  context.progress(`cli: ${plan.rounds} rounds × ${plan.perRound} runs per arm`);
  const samples = await sampleInterleaved(
    {
      node: () => runNode(['-e', ''], context.cwd, ''),
      process: () => runNode([CLI, 'exec', 'sh', 'echo hi'], context.cwd, 'hi\n'),
      thread: () => runNode([CLI, 'exec', 'sh', 'echo hi', '--isolation', 'thread'], context.cwd, 'hi\n'),
    },
    plan,
  );
  const bare = { name: `bare node -e ''`, stat: summarize(samples.node) };
  const row = (name: string, ms: number[], bound?: number): BenchRow => {
    const stat = summarize(ms);
    return {
      name,
      unit: 'ms',
      subject: stat,
      baseline: bare,
      ratio: stat.median / bare.stat.median,
      ...(bound === undefined ? {} : { target: target(stat.median, '<=', bound, 'subject') }),
    };
  };
  return {
    name: 'cli',
    rows: [
      row(`plurnk-execs exec sh 'echo hi' (process tier, the default)`, samples.process, EXEC_BOUND_MS),
      row(`plurnk-execs exec sh 'echo hi' --isolation thread`, samples.thread),
    ],
    notes: [
      `sh from ${sh.packageName} (installed under ${context.cwd}). Each sample is a fresh process to its exit: importing the CLI's exec bundle, discovery, one engine (or thread) booted for sh alone, the run, the host's close.`,
    ],
  };
}

/** Runs `node <args>` in `cwd` to its exit; rejects unless it exits 0 having printed exactly `stdout`. */
function runNode(args: string[], cwd: string, stdout: string): Promise<void> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, args, { cwd, stdio: ['ignore', 'pipe', 'pipe'] });
    const out: string[] = [];
    const err: string[] = [];
    child.stdout.setEncoding('utf8').on('data', (chunk: string) => out.push(chunk));
    child.stderr.setEncoding('utf8').on('data', (chunk: string) => err.push(chunk));
    child.once('error', reject);
    child.once('close', (code, signal) => {
      const printed = out.join('');
      if (code === 0 && printed === stdout) return resolve();
      const command = args[0] === CLI ? `plurnk-execs ${args.slice(1).join(' ')}` : `node ${args.join(' ')}`;
      const end = code === null ? `was killed by ${signal}` : `exited ${code}`;
      reject(
        new Error(
          `cli: ${command} ${end} printing ${JSON.stringify(printed)}, expected ${JSON.stringify(stdout)}: ${err.join('').slice(-400)}`,
        ),
      );
    });
  });
}

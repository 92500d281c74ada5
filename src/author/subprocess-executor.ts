import { spawn } from 'node:child_process';
import { statSync } from 'node:fs';
import { constants } from 'node:os';
import type { ChannelDecl } from '../contracts/channels.js';
import type { Effect, RuntimeAvailability } from '../contracts/effect.js';
import type { ExecArgs, SpawnArgs } from '../contracts/exec-args.js';
import { ErrorDetail } from '../contracts/error-detail.js';
import { isPlurnkExecsError } from '../contracts/errors.js';
import type { ExecResult } from '../contracts/result.js';
import { Results } from '../contracts/results.js';
import { BaseExecutor } from './base-executor.js';
import { cancelGroup } from './cancel-group.js';
import { probeBinary } from './probe-binary.js';
import { reportProcessGroup } from './process-groups.js';
import { defaultBinary, defaultSpawnArgs } from './spawn-recipe.js';

const CHANNELS: Readonly<Record<string, ChannelDecl>> = Object.freeze({
  stdout: Object.freeze({ mimetype: 'text/stream' }),
  stderr: Object.freeze({ mimetype: 'text/stream' }),
});

/** How long stdout/stderr may stay open after the leader exited (a background grandchild holds them). */
const DRAIN_AFTER_EXIT_MS = 200;

const NONZERO_RECOVERY = 'Inspect both stdout and stderr: either may hold the diagnostic.';

/**
 * Concrete base for command runtimes (§executor-subprocess). Declares `stdout` then `stderr`
 * as `text/stream`, spawns each run in its own process group, streams output through `write`,
 * and maps exit status and cancellation to results. A leaf normally overrides only `binary`
 * and `spawnArgs`.
 */
export class SubprocessExecutor extends BaseExecutor {
  get channels(): Readonly<Record<string, ChannelDecl>> {
    return CHANNELS;
  }

  /** The binary whose presence decides availability. Default: the tag's own (`python` ⇒ `python3`). */
  get binary(): string {
    return defaultBinary(this.runtime);
  }

  /**
   * The spawn recipe for one run. May throw `CommandSyntaxError`, which becomes a 400
   * `invalid-command` result; any other throw is a contract violation left to the consumer.
   */
  spawnArgs(runtime: string, body: string, target: string | null): SpawnArgs {
    return defaultSpawnArgs(runtime, body, target);
  }

  override effect(_target: string | null): Effect {
    return 'host';
  }

  override probe(signal?: AbortSignal): Promise<RuntimeAvailability> {
    return probeBinary(this.binary, signal);
  }

  async run(args: ExecArgs): Promise<ExecResult> {
    const owner = this.runtime;
    if (args.signal.aborted) {
      return fail(args, Results.failure(owner, 'cancelled', 499, 'cancelled before the process was started'));
    }
    const limit = ErrorDetail.resolve(owner);
    if (!limit.ok) return fail(args, limit.result);
    let recipe: SpawnArgs;
    try {
      recipe = this.spawnArgs(args.runtime, args.body, args.target);
    } catch (error) {
      if (!isPlurnkExecsError(error, 'invalid-command')) throw error;
      return fail(
        args,
        Results.failure(
          owner,
          'invalid-command',
          400,
          ErrorDetail.preview(error.message, limit.limit),
          { exitCode: -1 },
          {
            recovery: 'Fix the quoting of the command line: close every quote and do not end it with a backslash.',
          },
        ),
      );
    }
    if (args.cwd !== null && !isDirectory(args.cwd)) {
      return fail(
        args,
        Results.failure(
          owner,
          'spawn-failed',
          500,
          `working directory ${ErrorDetail.preview(args.cwd, limit.limit)} does not exist or is not a directory`,
        ),
      );
    }
    return runProcess(owner, recipe, args, limit.limit);
  }
}

/** Spawns the recipe, streams its output, and settles once the process group leader is done. */
function runProcess(owner: string, recipe: SpawnArgs, args: ExecArgs, limit: number): Promise<ExecResult> {
  return new Promise((resolve) => {
    const child = spawn(recipe.cmd, recipe.args, {
      cwd: args.cwd ?? undefined,
      env: args.env ?? process.env,
      detached: true,
      shell: recipe.useShell,
      stdio: [recipe.stdin === undefined ? 'ignore' : 'pipe', 'pipe', 'pipe'],
    });
    const pgid = child.pid;
    if (pgid !== undefined) reportProcessGroup(pgid);

    // stdio[1] and stdio[2] are 'pipe', so both streams exist.
    const stdout = child.stdout!;
    const stderr = child.stderr!;
    for (const [channel, stream] of [
      ['stdout', stdout],
      ['stderr', stderr],
    ] as const) {
      stream.setEncoding('utf8');
      stream.on('data', (chunk: string) => args.write(channel, chunk));
    }
    if (recipe.stdin !== undefined && child.stdin) {
      // A program that stops reading early (head -c 0) closes the pipe: EPIPE is not a failure.
      child.stdin.on('error', () => {});
      child.stdin.end(recipe.stdin);
    }

    const onAbort = () => {
      if (pgid !== undefined) cancelGroup(pgid, args.signal.reason);
    };
    args.signal.addEventListener('abort', onAbort, { once: true });

    let settled = false;
    const settle = (result: ExecResult) => {
      if (settled) return;
      settled = true;
      args.signal.removeEventListener('abort', onAbort);
      resolve(result);
    };

    child.on('error', (error) => {
      if (pgid !== undefined) return; // errors after a successful spawn surface through 'close'
      settle(
        fail(
          args,
          Results.failure(
            owner,
            'spawn-failed',
            500,
            `could not start ${recipe.cmd}: ${ErrorDetail.preview(error.message, limit)}`,
            {},
            {
              recovery: `Check that ${recipe.cmd} is installed and on PATH.`,
            },
          ),
        ),
      );
    });
    child.on('exit', () => {
      // Pipes held open by a background grandchild must not keep the run alive forever.
      setTimeout(() => {
        stdout.destroy();
        stderr.destroy();
      }, DRAIN_AFTER_EXIT_MS).unref();
    });
    child.on('close', (code, signal) => settle(finish(owner, recipe, args, code, signal)));
  });
}

/** Maps how the leader ended to a result and closes the channels to match. */
function finish(
  owner: string,
  recipe: SpawnArgs,
  args: ExecArgs,
  code: number | null,
  signal: NodeJS.Signals | null,
): ExecResult {
  const exitCode = code ?? 128 + (signal ? constants.signals[signal] : 0);
  if (args.signal.aborted) {
    return fail(
      args,
      Results.failure(owner, 'cancelled', 499, `cancelled; ${recipe.cmd} ${describeEnd(code, signal)}`, { exitCode }),
    );
  }
  if (code === 0) {
    args.setState('stdout', 'closed');
    args.setState('stderr', 'closed');
    return Results.success(200, { exitCode: 0 });
  }
  return fail(
    args,
    Results.failure(
      owner,
      'nonzero-exit',
      500,
      `${recipe.cmd} ${describeEnd(code, signal)}`,
      { exitCode },
      {
        recovery: NONZERO_RECOVERY,
        ...(signal ? { signal } : {}),
      },
    ),
  );
}

function describeEnd(code: number | null, signal: NodeJS.Signals | null): string {
  return signal ? `was terminated by ${signal}` : `exited with code ${code}`;
}

/** Marks both channels errored and passes the failure through. */
function fail(args: ExecArgs, result: ExecResult): ExecResult {
  args.setState('stdout', 'errored');
  args.setState('stderr', 'errored');
  return result;
}

function isDirectory(path: string): boolean {
  try {
    return statSync(path).isDirectory();
  } catch {
    return false;
  }
}

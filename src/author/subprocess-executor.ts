import { spawn } from 'node:child_process';
import { statSync } from 'node:fs';
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
import { defaultSpawnArgs } from './spawn-recipe.js';

const CHANNELS: Readonly<Record<string, ChannelDecl>> = Object.freeze({
  stdout: Object.freeze({ mimetype: 'text/stream' }),
  stderr: Object.freeze({ mimetype: 'text/stream' }),
});

/** How long stdout/stderr may stay open after the leader exited (a background grandchild holds them). */
const DRAIN_AFTER_EXIT_MS = 200;

/** Owner of every Problem this class mints, as in 1.x. */
const OWNER = 'executor:subprocess';

const NONZERO_RECOVERY = 'Inspect the stdout and stderr channels.';

/**
 * Concrete base for command runtimes (§executor-subprocess). Declares `stdout` then `stderr`
 * as `text/stream`, spawns each run in its own process group, streams output through `write`,
 * and maps exit status and cancellation to results (owner `executor:subprocess`). A leaf
 * normally overrides only the protected `binary` and `spawnArgs`, as 1.x leaves do.
 */
export class SubprocessExecutor extends BaseExecutor {
  get channels(): Readonly<Record<string, ChannelDecl>> {
    return CHANNELS;
  }

  /**
   * The binary whose `--version` decides availability, or `null` (the default, as in 1.x):
   * nothing to check, always available. A leaf that names an external interpreter overrides it.
   */
  protected get binary(): string | null {
    return null;
  }

  /**
   * The spawn recipe for one run. Default: the 1.x routing ({@link defaultSpawnArgs}). May
   * throw `CommandSyntaxError`, which becomes a 400 `invalid-command` result carrying the
   * error's own recovery; any other throw is a contract violation left to the consumer.
   */
  protected spawnArgs(runtime: string, body: string, target: string | null): SpawnArgs {
    return defaultSpawnArgs(runtime, body, target);
  }

  override effect(_target: string | null): Effect {
    return 'host';
  }

  override probe(signal?: AbortSignal): Promise<RuntimeAvailability> {
    return probeBinary(this.binary, signal);
  }

  /**
   * Runs one EXEC in 1.x's order: the detail limit, then the recipe, then a pre-abort, then
   * the working directory, then the spawn.
   */
  async run(args: ExecArgs): Promise<ExecResult> {
    const { runtime } = args;
    const limit = ErrorDetail.configuredLimit();
    if (limit === null) return fail(args, ErrorDetail.invalidConfiguration(OWNER));
    let recipe: SpawnArgs;
    try {
      recipe = this.spawnArgs(runtime, args.body, args.target);
    } catch (error) {
      if (!isPlurnkExecsError(error, 'invalid-command')) throw error;
      const recovery = (error as { recovery?: unknown }).recovery;
      return fail(
        args,
        Results.failure(
          OWNER,
          'invalid-command',
          400,
          `Could not parse the '${runtime}' command: ${ErrorDetail.preview(error, limit)}.`,
          { exitCode: -1 },
          {
            runtime,
            stage: 'input-validation',
            ...(typeof recovery === 'string' ? { recovery } : {}),
            retryable: false,
          },
        ),
      );
    }
    if (args.signal.aborted) {
      return fail(args, cancelled(runtime, `Execution of '${runtime}' was cancelled before it started.`, -1));
    }
    if (args.cwd !== null && !isDirectory(args.cwd)) {
      return fail(
        args,
        Results.failure(
          OWNER,
          'cwd-not-found',
          400,
          `Could not start '${runtime}': working directory ${ErrorDetail.preview(args.cwd, limit)} does not exist or is not a directory. Pass an existing directory as cwd, or null for the current one.`,
          { exitCode: -1 },
          { runtime, stage: 'spawn', errorCode: 'ENOENT', retryable: false },
        ),
      );
    }
    return runProcess(recipe, args, limit);
  }
}

/** The 499 `cancelled` failure. */
function cancelled(runtime: string, detail: string, exitCode: number): ExecResult {
  return Results.failure(
    OWNER,
    'cancelled',
    499,
    detail,
    { exitCode },
    { runtime, stage: 'execution', retryable: false },
  );
}

/** Spawns the recipe, streams its output, and settles once the process group leader is done. */
function runProcess(recipe: SpawnArgs, args: ExecArgs, limit: number): Promise<ExecResult> {
  return new Promise((resolve) => {
    const child = spawn(recipe.cmd, recipe.args, {
      cwd: args.cwd ?? undefined,
      // A copy: under Node's permission model, Node (since nodejs/node#58853) writes the
      // permission flags of process.execArgv into the NODE_OPTIONS of the env object it is given
      // (the host's threads hold none, worker/child-permission.ts; a caller outside them may),
      // and args.env is read-only.
      env: { ...(args.env ?? process.env) },
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

    child.on('error', (error: NodeJS.ErrnoException) => {
      if (pgid !== undefined) return; // errors after a successful spawn surface through 'close'
      settle(
        fail(
          args,
          Results.failure(
            OWNER,
            'spawn-failed',
            500,
            `Could not start '${args.runtime}': ${ErrorDetail.preview(error, limit)}`,
            { exitCode: -1 },
            {
              runtime: args.runtime,
              stage: 'spawn',
              errorCode: error.code,
              recovery: `Check that ${recipe.cmd} is installed and on PATH.`,
              retryable: false,
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
    child.on('close', (code, signal) => settle(finish(args, code, signal)));
  });
}

/** Maps how the leader ended to a result and closes the channels to match (1.x texts). */
function finish(args: ExecArgs, code: number | null, signal: NodeJS.Signals | null): ExecResult {
  const { runtime } = args;
  const exitCode = code ?? -1;
  if (args.signal.aborted) return fail(args, cancelled(runtime, `Execution of '${runtime}' was cancelled.`, exitCode));
  if (code === 0) {
    args.setState('stdout', 'closed');
    args.setState('stderr', 'closed');
    return { status: 200, exitCode: 0 };
  }
  // 1.x says "exited with code -1" for a leader killed by a signal; naming the signal says more.
  const ended = code === null && signal ? `was terminated by ${signal}` : `exited with code ${exitCode}`;
  return fail(
    args,
    Results.failure(
      OWNER,
      'nonzero-exit',
      500,
      `'${runtime}' ${ended}.`,
      { exitCode },
      {
        runtime,
        stage: 'execution',
        recovery: NONZERO_RECOVERY,
        ...(code === null && signal ? { signal } : {}),
        retryable: false,
      },
    ),
  );
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

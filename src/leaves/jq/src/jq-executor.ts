import { BaseExecutor, ErrorDetail, PlurnkExecsError, Results } from '@plurnk/plurnk-execs';
import type {
  ChannelDecl,
  Effect,
  ExecArgs,
  ExecResult,
  ExecutorOptions,
  RuntimeAvailability,
} from '@plurnk/plurnk-execs';
import { bindEnv, unbindMessage } from './env-binding.js';
import { callJq, jqEngine, jqStack } from './jq-engine.js';
import { readInput } from './read-input.js';

const CHANNELS: Readonly<Record<string, ChannelDecl>> = Object.freeze({
  results: Object.freeze({ mimetype: 'application/jsonl' }),
});

/** plurnk 1.x's recovery for a jq failure. */
const JQ_RECOVERY = 'Correct the jq program or its input.';
const ABORT_RECOVERY =
  'jq-wasm ran out of memory or stack: bound the recursion or the size of what the program builds. The next run gets a fresh jq.';

/**
 * The `jq` tag: jq 1.8.2 compiled to WebAssembly (jq-wasm), run in this thread. Program =
 * `body.trim() || "."`; without a target the input is null (`jq -n`), with one the target file
 * is the input and may hold many JSON values. Every output is one compact JSON value per line
 * on `results` (`application/jsonl`). `$ENV` and `env` show only the run's env.
 */
export class JqExecutor extends BaseExecutor {
  constructor(options: ExecutorOptions) {
    super(options);
    if (options.runtime !== 'jq') {
      throw new PlurnkExecsError(
        'invalid-declaration',
        `@plurnk/plurnk-execs-jq claims only runtime "jq"; it was constructed for ${JSON.stringify(options.runtime)}`,
      );
    }
  }

  get channels(): Readonly<Record<string, ChannelDecl>> {
    return CHANNELS;
  }

  /** `pure` without a target; `read` when a target file is the input. */
  override effect(target: string | null): Effect {
    return hasTarget(target) ? 'read' : 'pure';
  }

  /** Loads the engine (which also warms it for the first run) and reports jq's version. */
  override async probe(_signal?: AbortSignal): Promise<RuntimeAvailability> {
    try {
      const { version } = await jqEngine();
      const stack = jqStack();
      const extra = stack?.enlarged
        ? `, stack +${stack.addedMiB} MiB`
        : `; its stack could not be enlarged (${stack?.reason ?? 'not loaded'}), so deeply nested values abort`;
      return { available: true, detail: `${version} (jq-wasm${extra})` };
    } catch (error) {
      return {
        available: false,
        detail: `jq-wasm did not load: ${error instanceof Error ? error.message : String(error)}`,
      };
    }
  }

  async run(args: ExecArgs): Promise<ExecResult> {
    // The Problem owner 1.x's jq leaf uses.
    const owner = 'executor:jq';
    const cancelled = () =>
      fail(
        args,
        Results.failure(
          owner,
          'cancelled',
          499,
          'jq execution was cancelled.',
          {},
          {
            stage: 'execution',
            retryable: false,
          },
        ),
      );
    if (args.signal.aborted) return cancelled();
    const limit = ErrorDetail.resolve(owner);
    if (!limit.ok) return fail(args, limit.result);
    let input = '';
    if (hasTarget(args.target)) {
      const read = await readInput(owner, args.target, args.cwd, args.signal, limit.limit);
      if (!read.ok) return fail(args, read.result);
      input = read.text;
    }
    const engine = await jqEngine();
    if (args.signal.aborted) return cancelled();

    const bound = bindEnv(args.body.trim() || '.', args.env);
    const flags = hasTarget(args.target) ? ['-c'] : ['-c', '-n'];
    const outcome = callJq(engine, input, bound.program, flags);
    if (outcome.kind === 'aborted') {
      const detail = ErrorDetail.preview(`jq-wasm aborted: ${outcome.message}`, limit.limit);
      return fail(
        args,
        Results.failure(
          owner,
          'jq-aborted',
          500,
          detail,
          {},
          {
            stage: 'execution',
            recovery: ABORT_RECOVERY,
            retryable: false,
          },
        ),
      );
    }
    const { stdout, stderr, exitCode } = outcome.result;
    // Values printed before an error are real output: they stay, and the channel errors after them.
    if (stdout !== '') args.write('results', `${stdout}\n`);
    const message = unbindMessage(stderr, bound.prefix);
    if (exitCode === 0) {
      // debug, stderr and warnings: transient observations, not failures.
      if (message !== '')
        args.emit({
          source: 'executor:jq',
          kind: 'jq_stderr',
          level: 'info',
          message: ErrorDetail.preview(message, limit.limit),
        });
      args.setState('results', 'closed');
      return Results.success(200);
    }
    // As 1.x: jq's own message, or its exit code when it printed none; the exit code on the result.
    const trimmed = message.trim();
    const detail = trimmed === '' ? `jq exited with code ${exitCode}.` : ErrorDetail.preview(trimmed, limit.limit);
    return fail(
      args,
      Results.failure(
        owner,
        'jq-error',
        500,
        detail,
        { exitCode },
        {
          stage: 'execution',
          recovery: JQ_RECOVERY,
          retryable: false,
        },
      ),
    );
  }
}

function hasTarget(target: string | null): target is string {
  return target !== null && target !== '';
}

function fail(args: ExecArgs, result: ExecResult): ExecResult {
  args.setState('results', 'errored');
  return result;
}

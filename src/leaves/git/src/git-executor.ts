import { CommandSyntaxError, PlurnkExecsError, probeBinary, SubprocessExecutor } from '@plurnk/plurnk-execs';
import type { ExecArgs, ExecResult, ExecutorOptions, RuntimeAvailability, SpawnArgs } from '@plurnk/plurnk-execs';
import { readGitCommand } from './git-command.js';
import { withoutRepositoryEnv } from './repository-env.js';

/**
 * The `git` tag: `git [-C <target>] <body words>`, spawned without a shell. A body that is not
 * one git command (shell syntax, a leading `git`, open quotes, nothing) is refused with 400
 * `invalid-command` and a recovery hint; the repository-identity variables (GIT_DIR,
 * GIT_CONFIG*, …) are removed from the child environment so the run acts on the repository
 * its target or working directory names. Effect `host` (the inherited default).
 */
export class GitExecutor extends SubprocessExecutor {
  constructor(options: ExecutorOptions) {
    super(options);
    if (options.runtime !== 'git') {
      throw new PlurnkExecsError(
        'invalid-declaration',
        `@plurnk/plurnk-execs-git claims only runtime "git"; it was constructed for ${JSON.stringify(options.runtime)}`,
      );
    }
  }

  /** Always `git`, as 1.x declares it. */
  protected override get binary(): string {
    return 'git';
  }

  /**
   * `git [-C target] words…`.
   *
   * @throws CommandSyntaxError, with its recovery, when the body is not one git command.
   */
  protected override spawnArgs(_runtime: string, body: string, target: string | null): SpawnArgs {
    const command = readGitCommand(body);
    if (!command.ok) throw new CommandSyntaxError(command.reason, command.recovery);
    const args = target !== null && target !== '' ? ['-C', target, ...command.words] : command.words;
    return { cmd: 'git', args, useShell: false };
  }

  /** `git --version` under `signal`; a missing git says how to install it. */
  override async probe(signal?: AbortSignal): Promise<RuntimeAvailability> {
    const verdict = await probeBinary('git', signal);
    if (verdict.available || verdict.detail !== 'git not found on PATH') return verdict;
    return { available: false, detail: `${verdict.detail} (install: apt-get install git)` };
  }

  /** Runs with the repository-identity variables removed from the child's environment. */
  override run(args: ExecArgs): Promise<ExecResult> {
    // A fresh args object: ExecArgs is never mutated; only the child's env differs.
    return super.run({ ...args, env: withoutRepositoryEnv(args.env ?? process.env) });
  }
}

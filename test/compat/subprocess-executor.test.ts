import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import {
  CommandSyntaxError,
  onProcessGroup,
  signalGroup,
  SubprocessExecutor,
  type SpawnArgs,
} from '../../src/index.js';
import { recordingArgs } from '../helpers/recording-args.js';

// 1.x SubprocessExecutor: a leaf overrides the protected `binary` and `spawnArgs`; `binary`
// defaults to null (available); probe and run follow 1.x's order and texts.
class Named extends SubprocessExecutor {
  constructor(private readonly bin: string | null) {
    super({ runtime: 'named', glyph: '' });
  }
  protected override get binary(): string | null {
    return this.bin;
  }
}

class Recipe extends SubprocessExecutor {
  constructor(private readonly recipe: (body: string) => SpawnArgs) {
    super({ runtime: 'recipe', glyph: '' });
  }
  protected override spawnArgs(_runtime: string, body: string): SpawnArgs {
    return this.recipe(body);
  }
}

let groups: number[] = [];
let unsubscribe: () => void;
beforeEach(() => {
  groups = [];
  unsubscribe = onProcessGroup((pgid) => groups.push(pgid));
});
afterEach(() => {
  unsubscribe();
  vi.unstubAllEnvs();
  for (const pgid of groups) signalGroup(pgid, 'SIGKILL');
});

describe('SubprocessExecutor.probe, as 1.x', () => {
  it('is available without running anything when binary is null, the default', async () => {
    const onlySpawnArgs = new Recipe((body) => ({ cmd: 'sh', args: ['-c', body], useShell: false }));
    expect(await onlySpawnArgs.probe()).toEqual({ available: true });
    expect(await new Named(null).probe()).toEqual({ available: true });
    expect(groups).toEqual([]);
  });

  it('reports a real binary with its version line, bounded by the detail limit', async () => {
    const verdict = await new Named('node').probe();
    expect(verdict).toEqual({ available: true, detail: process.version });
    expect(verdict.detail).toMatch(/^v?\d+\./);
    vi.stubEnv('PLURNK_EXECS_ERROR_DETAIL_LIMIT', '2');
    expect(await new Named('node').probe()).toEqual({ available: true, detail: `${process.version.slice(0, 2)}...` });
  });

  it.each([
    ['a missing binary', 'no-such-binary-xyz', { available: false, detail: 'no-such-binary-xyz not found on PATH' }],
    ['a --version that exits nonzero', 'false', { available: false, detail: 'false --version exited 1' }],
  ])('reports %s as unavailable', async (_name, bin, verdict) => {
    expect(await new Named(bin).probe()).toEqual(verdict);
  });

  it('is unavailable without a detail, and starts nothing, when the signal is already aborted', async () => {
    const controller = new AbortController();
    controller.abort();
    expect(await new Named('node').probe(controller.signal)).toEqual({ available: false });
    expect(groups).toEqual([]);
  });

  it('needs the detail limit before it runs anything', async () => {
    vi.stubEnv('PLURNK_EXECS_ERROR_DETAIL_LIMIT', '');
    expect(await new Named('node').probe()).toEqual({
      available: false,
      detail: 'PLURNK_EXECS_ERROR_DETAIL_LIMIT must be set to a non-negative integer.',
    });
    expect(groups).toEqual([]);
  });
});

describe('SubprocessExecutor.run, as 1.x', () => {
  const sh = new Recipe((body) => ({ cmd: 'sh', args: ['-c', body], useShell: false }));

  it('checks the detail limit first: the exact invalid-configuration, both channels errored, nothing spawned', async () => {
    vi.stubEnv('PLURNK_EXECS_ERROR_DETAIL_LIMIT', '-1');
    const { args, recording } = recordingArgs({ runtime: 'recipe', body: 'echo hi' });
    expect(await sh.run(args)).toStrictEqual({
      status: 500,
      problem: {
        type: 'https://problems.plurnk.xyz/executor/subprocess/invalid-configuration',
        title: 'Invalid configuration',
        status: 500,
        detail: 'PLURNK_EXECS_ERROR_DETAIL_LIMIT must be set to a non-negative integer.',
        configuration: 'PLURNK_EXECS_ERROR_DETAIL_LIMIT',
        stage: 'configuration',
        retryable: false,
      },
    });
    expect([recording.state('stdout'), recording.state('stderr')]).toEqual(['errored', 'errored']);
    expect(groups).toEqual([]);
  });

  it("maps a CommandSyntaxError to 400 invalid-command with the thrower's recovery, or none", async () => {
    for (const [recovery, expected] of [
      ['Quote the path.', { recovery: 'Quote the path.' }],
      [undefined, {}],
    ] as const) {
      const leaf = new Recipe(() => {
        throw new CommandSyntaxError('unterminated single quote', recovery);
      });
      const { args, recording } = recordingArgs({ runtime: 'recipe', body: "echo 'x" });
      expect(await leaf.run(args)).toStrictEqual({
        status: 400,
        exitCode: -1,
        problem: {
          type: 'https://problems.plurnk.xyz/executor/subprocess/invalid-command',
          title: 'Invalid command',
          status: 400,
          detail: "Could not parse the 'recipe' command: unterminated single quote.",
          runtime: 'recipe',
          stage: 'input-validation',
          ...expected,
          retryable: false,
        },
      });
      expect(recording.events.filter((e) => e.kind === 'state').map((e) => e.channel)).toEqual(['stdout', 'stderr']);
    }
    expect(new CommandSyntaxError('x').recovery).toBeNull();
    expect(new CommandSyntaxError('x', { cause: 1 }).cause).toBe(1);
  });

  it('reports a binary that cannot start as spawn-failed with its errorCode', async () => {
    const leaf = new Recipe(() => ({ cmd: 'no-such-binary-xyz', args: [], useShell: false }));
    const { args } = recordingArgs({ runtime: 'recipe', body: '1' });
    const result = await leaf.run(args);
    expect(result).toMatchObject({
      status: 500,
      exitCode: -1,
      problem: {
        type: 'https://problems.plurnk.xyz/executor/subprocess/spawn-failed',
        detail: "Could not start 'recipe': spawn no-such-binary-xyz ENOENT",
        runtime: 'recipe',
        stage: 'spawn',
        errorCode: 'ENOENT',
        retryable: false,
      },
    });
  });

  it('gives exactly {status: 200, exitCode: 0} for exit 0 and the 1.x nonzero-exit for exit 3', async () => {
    expect(await sh.run(recordingArgs({ runtime: 'recipe', body: 'echo hello' }).args)).toStrictEqual({
      status: 200,
      exitCode: 0,
    });
    expect(await sh.run(recordingArgs({ runtime: 'recipe', body: 'exit 3' }).args)).toStrictEqual({
      status: 500,
      exitCode: 3,
      problem: {
        type: 'https://problems.plurnk.xyz/executor/subprocess/nonzero-exit',
        title: 'Nonzero exit',
        status: 500,
        detail: "'recipe' exited with code 3.",
        runtime: 'recipe',
        stage: 'execution',
        recovery: 'Inspect the stdout and stderr channels.',
        retryable: false,
      },
    });
  });
});

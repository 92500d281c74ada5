import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { bootHost, type ExecOutcome, type Host } from '../../../src/host/index.js';
import { SubprocessExecutor, type ExecResult } from '../../../src/index.js';
import { fixtureDiscovery } from '../../helpers/fixture-discovery.js';
import { recordingArgs } from '../../helpers/recording-args.js';

const scratch = mkdtempSync(join(tmpdir(), 'plurnk-host-subprocess-'));

const CASES: {
  name: string;
  runtime: string;
  body: string;
  target?: string;
  cwd?: string;
  env?: Record<string, string>;
}[] = [
  { name: 'stdout and success', runtime: 'sh', body: 'echo hello; printf "a\\nb"' },
  { name: 'a nonzero exit with both channels', runtime: 'sh', body: 'echo out; echo err >&2; exit 3' },
  {
    name: 'a run env handed to the child',
    runtime: 'sh',
    body: 'echo "$ONLY_HERE:${HOME:-no home}"',
    env: { ONLY_HERE: 'given', PATH: process.env.PATH ?? '' },
  },
  { name: 'a cwd', runtime: 'sh', body: 'pwd', cwd: scratch },
  { name: 'a target program with the body as stdin', runtime: 'sh', body: 'piped', target: 'cat; echo done' },
  { name: 'node -e', runtime: 'node', body: 'process.stdout.write(String(6 * 7)); process.exitCode = 2' },
];

/** A run's outcome reduced to what both paths must agree on. */
function comparable(result: ExecResult, channel: (name: string) => { text: string; state: string | undefined }) {
  return { result, stdout: channel('stdout'), stderr: channel('stderr') };
}

// SubprocessExecutor must behave the same whether the host runs it in a thread or a test
// calls it in-process: same result, same channel text, same terminal states.
describe('SubprocessExecutor through the host', () => {
  let host: Host;
  beforeAll(async () => {
    host = await bootHost(fixtureDiscovery(['exec-subprocess']));
  });
  afterAll(async () => {
    await host.close();
    rmSync(scratch, { recursive: true, force: true });
  });

  it.each(CASES)('gives the in-process result for $name', async ({ runtime, body, target, cwd, env }) => {
    const executor = new SubprocessExecutor({ runtime, glyph: '' });
    const { args, recording } = recordingArgs({
      runtime,
      body,
      target: target ?? null,
      cwd: cwd ?? null,
      ...(env ? { env } : {}),
    });
    const local = comparable(await executor.run(args), (name) => ({
      text: recording.text(name),
      state: recording.state(name),
    }));
    const out: ExecOutcome = await host.exec({
      runtime,
      body,
      target: target ?? null,
      cwd: cwd ?? null,
      ...(env ? { env } : {}),
    });
    const isolated = comparable(out.result, (name) => ({
      text: out.channels[name]!.text,
      state: out.channels[name]!.state,
    }));
    expect(isolated).toEqual(local);
  });

  it("refuses a missing cwd as the caller's 400 cwd-not-found, in-process and (before effect()) through the host", async () => {
    const cwd = join(scratch, 'missing');
    const { args } = recordingArgs({ runtime: 'sh', body: 'pwd', target: null, cwd });
    const local = await new SubprocessExecutor({ runtime: 'sh', glyph: '' }).run(args);
    expect(local.problem?.type).toBe('https://problems.plurnk.xyz/executor/subprocess/cwd-not-found');
    const out = await host.exec({ runtime: 'sh', body: 'pwd', cwd });
    expect(out).toMatchObject({ outcome: 'refused', effect: null, result: { status: 400 } });
    expect(out.result.problem?.type).toBe('https://problems.plurnk.xyz/scheme/exec/cwd-not-found');
    expect(out.result.problem?.detail).toContain(cwd);
  });

  it('hands an already-aborted caller signal to the leaf already aborted, so nothing is spawned', async () => {
    const controller = new AbortController();
    controller.abort();
    const marker = join(scratch, 'must-not-exist');
    const out = await host.exec({ runtime: 'sh', body: `touch ${marker}`, signal: controller.signal });
    // The leaf's own 499 (`cancelled`), not the host's forced end: the leaf saw the abort first.
    expect(out.result).toMatchObject({
      status: 499,
      problem: { detail: "Execution of 'sh' was cancelled before it started." },
    });
    expect(out.result.problem?.type).toBe('https://problems.plurnk.xyz/executor/subprocess/cancelled');
    expect(existsSync(marker)).toBe(false);
  });
});

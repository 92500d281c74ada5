import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { TIER } from '../../helpers/tier.js';
import { expectContained, zooDirs, zooHost } from '../../helpers/zoo.js';

// Rules of §executor-forbidden the host enforces from outside the leaf: ExecArgs are
// read-only, no nested worker threads, no signals to the shared process, no state carried
// between runs, no host secrets.
describe('the zoo: forbidden habits', () => {
  const host = zooHost(
    {
      packageDirs: zooDirs(
        'healthy',
        'mutates-args',
        'starts-worker-thread',
        'signals-its-host',
        'retains-state',
        'host/exec-reads-env',
      ),
      breaker: { crashes: 1000 },
      limits: { graceMs: 300 },
    },
    { PLURNK_SECRET: 'zoo-plurnk-secret', ZOO_API_TOKEN: 'zoo-api-token' },
  );

  it('refuses a change to ExecArgs: the assignment throws in the leaf, 500 executor-threw, recorded as a violation', async () => {
    const out = await expectContained(host(), {
      runtime: 'mutates-args',
      problem: 'exec/executor-threw',
      status: 500,
      kept: 'before the fault',
      next: { body: 'ok' },
    });
    const refusal =
      'run() tried to set args.body: ExecArgs are read-only (§executor-forbidden); copy what you need instead';
    expect(out.result.problem).toMatchObject({
      detail: `run() threw: PlurnkExecsError: ${refusal}`,
      error: 'PlurnkExecsError',
    });
    expect(out.violations).toEqual([{ kind: 'mutated-args', detail: refusal }]);
    expect(out.channels.out!.text).toBe('before the fault');
  });

  it('refuses a worker thread of the leaf’s own: 500 executor-threw, recorded as a violation', async () => {
    const out = await expectContained(host(), {
      runtime: 'starts-worker-thread',
      problem: 'exec/executor-threw',
      status: 500,
      kept: 'before the fault',
      next: { body: 'ok' },
    });
    const refusal =
      'new Worker(): an executor leaf runs in a worker thread of its own and may not start more (§executor-forbidden)';
    expect(out.result.problem?.detail).toBe(`run() threw: PlurnkExecsError: ${refusal}`);
    expect(out.violations).toEqual([{ kind: 'thread-ban', detail: refusal }]);
  });

  // The host's process group, as the fixture reads it: a vitest worker is not its group's leader.
  const stat = readFileSync('/proc/self/stat', 'utf8');
  const group = Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[2]);
  it.each([
    ['its process', 'fault', process.pid, 'that is the host process'],
    ['its process group', 'group', -group, 'that is the host’s process group'],
    ['pid 0 (its own group)', 'zero', 0, 'that is the host’s process group'],
    ['pid -1 (every process)', 'all', -1, 'that is every process the user owns'],
  ])('refuses a signal to %s: 500 executor-threw, recorded as a violation', async (_what, body, pid, whose) => {
    const out = await expectContained(host(), {
      runtime: 'signals-its-host',
      body,
      problem: 'exec/executor-threw',
      status: 500,
      kept: 'before the fault',
      next: { body: 'ok' },
    });
    // In the process tier the leaf names its engine's pid and group as its namespace shows them.
    const shown =
      TIER === 'process' ? (/process\.kill\((-?\d+)\)/.exec(out.violations[0]?.detail ?? '')?.[1] ?? '') : pid;
    if (TIER === 'process' && pid === -1) expect(shown).toBe('-1');
    // Both tiers run the same signal guard; the process tier's leaf sees its engine's pid and group.
    // The engine is not its namespace's pid 1 (the init is), so -1 means every process there too.
    const refusal = `process.kill(${shown}): ${whose}; a leaf may signal only processes in groups its own run started, or that carry its run's marker (§executor-forbidden)`;
    expect(out.result.problem?.detail).toBe(`run() threw: PlurnkExecsError: ${refusal}`);
    expect(out.violations).toEqual([{ kind: 'forbidden-signal', detail: refusal }]);
    expect(out.channels.out!.text).toBe('before the fault');
  });

  it('never lets module state reach the next run: each run starts in a fresh thread', async () => {
    const out = await expectContained(host(), {
      runtime: 'retains-state',
      status: 200,
      kept: 'run 1',
      next: { body: 'again', text: 'run 1' },
    });
    expect(out.channels.out!.text).toBe('run 1');
  });

  it('hides host secrets from a leaf that reads process.env, while the rest of the environment is there', async () => {
    const during = host().exec({ runtime: 'healthy', body: 'during' });
    const out = await host().exec({ runtime: 'env', body: 'PLURNK_SECRET,ZOO_API_TOKEN,PATH' });
    expect((await during).result).toEqual({ status: 200 });
    expect(out.result).toEqual({ status: 200 });
    const seen = JSON.parse(out.channels.results!.text) as { processEnv: Record<string, string | null> };
    expect(seen.processEnv).toEqual({ PLURNK_SECRET: null, ZOO_API_TOKEN: null, PATH: process.env.PATH });
  });
});

import { mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { formatProfile, runProfile } from '../../../src/bench/profile/run-profile.js';

describe('runProfile', () => {
  const dirs: string[] = [];
  afterEach(() => {
    for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true });
  });

  it('profiles a workload in a fresh process: its main thread and its executor threads, summarized apart', async () => {
    const out = mkdtempSync(join(tmpdir(), 'plurnk-execs-profile-test-'));
    dirs.push(out);
    const { groups } = await runProfile({ workload: 'exec', runs: 300, out });
    expect(readdirSync(out).filter((name) => name.endsWith('.cpuprofile')).length).toBeGreaterThanOrEqual(2);
    expect(groups.map((group) => group.name).sort()).toEqual([
      'the process: main thread',
      'the process: worker threads',
    ]);
    const main = groups.find((group) => group.name.endsWith('main thread'))!.summary;
    expect(main.totalMs).toBeGreaterThan(0);
    // The thread host's own dispatch code ran on the main thread during the runs.
    expect(main.areas.map((area) => area.name)).toContain('dist/thread-host');
    expect(formatProfile('exec', groups)).toContain('### the process: worker threads');
  }, 60_000);

  it("summarizes the engine's tick logs in the process tier, where no .cpuprofile can be written", async () => {
    const parent = mkdtempSync(join(tmpdir(), 'plurnk-execs-profile-test-'));
    dirs.push(parent);
    // A directory that does not exist yet: the service's main thread alone writes no profile before the workload ends.
    const out = join(parent, 'new');
    const { groups, engineLogs } = await runProfile({ workload: 'exec-process', runs: 100, out });
    // The service's own main thread is profiled as in the thread tier.
    expect(groups.map((group) => group.name)).toContain('the process: main thread');
    // The engine's main thread and its executor thread each wrote a log.
    expect(engineLogs.length).toBeGreaterThanOrEqual(2);
    expect(engineLogs[0]!.summary).toContain('[Summary]');
    expect(formatProfile('exec-process', groups, engineLogs)).toContain(`### engine isolate: ${engineLogs[0]!.file}`);
  }, 60_000);

  it('names the workloads when asked for one it does not have', async () => {
    await expect(runProfile({ workload: 'nope' })).rejects.toMatchObject({
      code: 'invalid-configuration',
      message: expect.stringContaining(
        'exec, exec-effect, exec-process, sh, sh-process, each-run, recycle, burst, flood, flood-process, boot',
      ),
    });
  });
});

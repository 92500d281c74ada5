import { spawn } from 'node:child_process';
import { describe, expect, it } from 'vitest';
import { reapGroups } from '../../../../src/host/threads/reaper.js';
import { survivors } from '../../../helpers/survivors.js';

/** Starts `sh -c script` as the leader of its own group and waits until it printed its first line. */
async function startGroup(script: string): Promise<number> {
  const child = spawn('sh', ['-c', script], { detached: true, stdio: ['ignore', 'pipe', 'ignore'] });
  await new Promise((resolve) => child.stdout.once('data', resolve));
  child.stdout.destroy();
  return child.pid!;
}

describe('reapGroups', () => {
  it('kills a group with SIGHUP, and one that ignores SIGHUP with SIGKILL after grace', async () => {
    const polite = await startGroup('echo up; sleep 1000 & wait');
    const stubborn = await startGroup('trap "" HUP; echo up; sleep 1000 & wait');
    expect(survivors(polite)).not.toEqual([]);
    expect(survivors(stubborn)).not.toEqual([]);
    expect(await reapGroups([polite, stubborn, stubborn], 200)).toEqual([]);
    expect(survivors(polite)).toEqual([]);
    expect(survivors(stubborn)).toEqual([]);
  });

  it('ignores groups that are gone and never signals its own group', async () => {
    expect(await reapGroups([0, 1, process.pid, 2 ** 22 + 7], 50)).toEqual([]);
  });
});

import { spawn } from 'node:child_process';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { describe, expect, it } from 'vitest';
import { reapGroups } from '../../../../src/thread-host/threads/reaper.js';
import { liveGroupMembers, signalGroup } from '../../../../src/runtime/process-group.js';
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

  it('ignores groups that are gone, 0, 1 and its own pid', async () => {
    expect(await reapGroups([0, 1, process.pid, 2 ** 22 + 7], 50)).toEqual([]);
  });

  // The reaping process must not be the group's leader (its pid is filtered earlier), so a
  // detached sh leads the group and holds a sleeper; a node child of it, in the same group,
  // asks the reaper to reap that group.
  it('never signals its own group, even when asked to reap it', async () => {
    const reaper = pathToFileURL(join(import.meta.dirname, '../../../../dist/thread-host/threads/reaper.js')).href;
    const script = `const { reapGroups } = await import(${JSON.stringify(reaper)});
      console.log(JSON.stringify(await reapGroups([Number(process.argv[1])], 100)));`;
    const child = spawn('sh', ['-c', 'sleep 1000 & echo "$!"; node --input-type=module -e "$1" "$$"', 'sh', script], {
      detached: true,
      stdio: ['ignore', 'pipe', 'inherit'],
    });
    const group = child.pid!;
    let out = '';
    child.stdout.setEncoding('utf8').on('data', (chunk: string) => (out += chunk));
    const exit = await new Promise<[number | null, NodeJS.Signals | null]>((resolve) =>
      child.once('exit', (code, signal) => resolve([code, signal])),
    );
    try {
      const [sleeper, verdict] = out.trim().split('\n');
      expect(exit).toEqual([0, null]);
      expect(verdict).toBe('[]');
      expect(liveGroupMembers(group)).toEqual([Number(sleeper)]);
    } finally {
      signalGroup(group, 'SIGKILL');
    }
  });
});

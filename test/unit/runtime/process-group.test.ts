import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { describe, expect, it } from 'vitest';
import { liveGroupMembers } from '../../../src/index.js';

describe('liveGroupMembers', () => {
  it('finds the living leader of a group, and nothing once it exited and was reaped', async () => {
    const child = spawn('sleep', ['30'], { detached: true, stdio: 'ignore' });
    const pgid = child.pid!;
    expect(liveGroupMembers(pgid)).toEqual([pgid]);
    child.kill('SIGKILL');
    await once(child, 'exit');
    expect(liveGroupMembers(pgid)).toEqual([]);
  });

  it('answers a group that does not exist without error', () => {
    // Above the largest pid Linux hands out (4194304), so no such group can exist.
    expect(liveGroupMembers(4_194_305)).toEqual([]);
  });
});

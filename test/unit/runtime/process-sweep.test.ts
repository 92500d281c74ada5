import { spawn } from 'node:child_process';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { liveGroupMembers } from '../../../src/runtime/process-group.js';
import { sweepRunProcesses } from '../../../src/runtime/process-sweep.js';

function startGroup(): number {
  const child = spawn('sleep', ['30'], { detached: true, stdio: 'ignore' });
  child.unref();
  return child.pid!;
}

describe('sweepRunProcesses', () => {
  afterEach(() => vi.restoreAllMocks());

  // This machine runs tests as root, where no signal fails with EPERM: one group's signals are
  // made to fail the way a non-root host's would for a group of another user's.
  it('goes on past a group it may not signal: the other groups are still killed, and it resolves', async () => {
    const forbidden = startGroup();
    const own = startGroup();
    const kill = process.kill.bind(process);
    vi.spyOn(process, 'kill').mockImplementation((pid: number, signal?: string | number) => {
      if (Math.abs(pid) === forbidden && signal !== 0)
        throw Object.assign(new Error('kill EPERM'), { code: 'EPERM', errno: -1, syscall: 'kill' });
      return kill(pid, signal);
    });
    try {
      const swept = await sweepRunProcesses({ groups: [forbidden, own] }, 50);
      expect(swept.found).toBe(2);
      expect(swept.survivors).toEqual([forbidden]);
      expect(liveGroupMembers(own)).toEqual([]);
    } finally {
      vi.restoreAllMocks();
      process.kill(-forbidden, 'SIGKILL');
    }
  }, 10_000);
});

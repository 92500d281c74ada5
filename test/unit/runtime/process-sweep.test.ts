import { spawn } from 'node:child_process';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { liveGroupMembers } from '../../../src/runtime/process-group.js';
import { findRunProcesses, sweepRunProcesses } from '../../../src/runtime/process-sweep.js';
import { RUN_MARKER } from '../../../src/runtime/run-marker.js';

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

/** A marked `sleep` in a session of its own (as a leaf's `setsid` daemon): found only by its marker. */
function startMarked(marker: string): number {
  const child = spawn('sleep', ['30'], {
    detached: true,
    stdio: 'ignore',
    env: { ...process.env, [RUN_MARKER]: marker },
  });
  child.unref();
  return child.pid!;
}

describe('findRunProcesses', () => {
  const started: number[] = [];
  afterEach(() => {
    for (const pid of started.splice(0)) process.kill(pid, 'SIGKILL');
  });

  // A run's processes all get pids after its first one: shortly after its start, only those rows are read.
  it('reads only the pids allocated since the run’s first process, while that is a window', () => {
    const marker = `window-${process.pid}`;
    const since = Date.now();
    const before = startMarked(marker);
    const first = startMarked(marker);
    const after = startMarked(marker);
    started.push(before, first, after);
    expect(findRunProcesses({ groups: [], marker, since, firstPid: first }).sort()).toEqual([first, after].sort());
    // Without a window every row is read.
    expect(findRunProcesses({ groups: [], marker, since }).sort()).toEqual([before, first, after].sort());
  });

  it('reads every row once the run is older than the window, or the pid counter wrapped past its first pid', () => {
    const marker = `no-window-${process.pid}`;
    const since = Date.now();
    const before = startMarked(marker);
    const first = startMarked(marker);
    started.push(before, first);
    const all = [before, first].sort();
    // Started long ago (by the clock it was given): the pids may have wrapped since.
    expect(findRunProcesses({ groups: [], marker, since: since - 60_000, firstPid: first }).sort()).toEqual(all);
    // A first pid above the last allocated one: the counter wrapped.
    expect(findRunProcesses({ groups: [], marker, since, firstPid: 4_194_305 }).sort()).toEqual(all);
  });
});

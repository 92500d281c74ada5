import { spawn } from 'node:child_process';
import { readFileSync, symlinkSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { parseProcStat } from '../../../src/runtime/proc-table.js';
import { parseProcStat as parseProcStatInThread } from '../../../src/worker/guard-kit.js';

/**
 * `text` as the kernel prints it for the same process while its parent reaps it: once its signal
 * handlers are released, fs/proc/array.c can no longer read its parent, group or session, and
 * prints the values it started from (0, -1, -1). A CI run caught a leader in that state and the
 * host called its run's report of the group a forgery.
 */
function whileReaped(text: string): string {
  const close = text.lastIndexOf(')');
  const [state, , , , ...rest] = text.slice(close + 2).split(' ');
  return `${text.slice(0, close + 2)}${[state, '0', '-1', '-1', ...rest].join(' ')}`;
}

describe('parsing /proc/<pid>/stat', () => {
  const cleanups: (() => Promise<void> | void)[] = [];
  afterEach(async () => {
    for (const cleanup of cleanups.splice(0)) await cleanup();
  });

  // A command may be named anything, parentheses and spaces included: `sleep` under another name.
  async function oddlyNamedChild(): Promise<{ pid: number; text: string }> {
    const dir = await mkdtemp(join(tmpdir(), 'proc-stat-'));
    cleanups.push(() => rm(dir, { recursive: true, force: true }));
    const odd = join(dir, 'a) Z 1 1 (b');
    symlinkSync('/bin/sleep', odd);
    const child = spawn(odd, ['30'], { detached: true, stdio: 'ignore' });
    cleanups.push(() => void child.kill('SIGKILL'));
    await new Promise((resolve) => child.once('spawn', resolve));
    return { pid: child.pid!, text: readFileSync(`/proc/${child.pid}/stat`, 'utf8') };
  }

  it('reads a living process whatever its command is called, in the host and in a thread', async () => {
    const { pid, text } = await oddlyNamedChild();
    expect(text).toContain('(a) Z 1 1 (b)');
    const row = parseProcStat(pid, text);
    expect(row).toMatchObject({ pid, ppid: process.pid, pgrp: pid, zombie: false });
    expect(row!.startTicks).toBeGreaterThan(0);
    expect(parseProcStatInThread(text)).toEqual({
      state: expect.stringMatching(/^[RSD]$/),
      ppid: process.pid,
      pgrp: pid,
      startTicks: row!.startTicks,
    });
  });

  it('reads a process its parent is reaping (group -1) as gone, in the host and in a thread', async () => {
    const { pid, text } = await oddlyNamedChild();
    const reaped = whileReaped(text);
    expect(reaped).not.toBe(text);
    expect(parseProcStat(pid, reaped)).toBeUndefined();
    expect(parseProcStatInThread(reaped)).toBeUndefined();
  });
});

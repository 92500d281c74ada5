import { spawn } from 'node:child_process';
import { describe, expect, it } from 'vitest';
import { descendants, descendantsRss } from '../../../src/bench/descendants.js';

describe('the processes this one started, from /proc', () => {
  it('finds a child and its own child, with their resident memory, and no engine among them', async () => {
    const child = spawn('sh', ['-c', 'sleep 30 & wait'], { stdio: 'ignore' });
    try {
      await new Promise((resolve) => child.once('spawn', resolve));
      // The shell's own child appears once the shell forked it.
      await expect.poll(() => descendants().filter((process) => process.ppid === child.pid).length).toBe(1);
      const found = descendants();
      const shell = found.find((process) => process.pid === child.pid);
      expect(shell).toMatchObject({ ppid: process.pid, zombie: false, engine: false });
      expect(shell!.rssBytes).toBeGreaterThan(0);
      expect(descendantsRss().engines).toBe(0);
      expect(descendantsRss().all).toBeGreaterThanOrEqual(shell!.rssBytes);
    } finally {
      child.kill('SIGKILL');
    }
  });
});

import { spawn } from 'node:child_process';
import { readdirSync } from 'node:fs';
import { afterEach, describe, expect, it } from 'vitest';
import { readProcTable } from '../../../src/runtime/proc-table.js';

/** A child Node process running two worker threads of its own; resolves once they run. */
async function threadedChild(): Promise<{ pid: number; threads: number[]; kill: () => void }> {
  const source =
    "const { Worker } = require('node:worker_threads'); for (let i = 0; i < 2; i++) new Worker('setInterval(() => {}, 1000)', { eval: true }); setTimeout(() => console.log('up'), 200); setInterval(() => {}, 1000);";
  const child = spawn(process.execPath, ['-e', source], { stdio: ['ignore', 'pipe', 'ignore'] });
  await new Promise((resolve) => child.stdout.once('data', resolve));
  const pid = child.pid!;
  const threads = readdirSync(`/proc/${pid}/task`)
    .map(Number)
    .filter((tid) => tid !== pid);
  return { pid, threads, kill: () => child.kill('SIGKILL') };
}

describe('readProcTable', () => {
  const kills: (() => void)[] = [];
  afterEach(() => {
    for (const kill of kills.splice(0)) kill();
  });

  // A run's sweep reads the few pids allocated since its first process one by one: /proc/<tid>
  // exists for every thread too, and a thread is no process to sweep.
  it('reads a short pid range pid by pid, its processes and none of their other threads', async () => {
    const child = await threadedChild();
    kills.push(child.kill);
    expect(child.threads.length).toBeGreaterThanOrEqual(2);
    const last = Math.max(child.pid, ...child.threads);
    const short = readProcTable({ first: child.pid, last });
    expect(short.get(child.pid)?.pid).toBe(child.pid);
    for (const tid of child.threads) expect(short.has(tid)).toBe(false);
    // The whole table (as /proc lists it) agrees: the child, without its threads.
    const whole = readProcTable();
    expect(whole.has(child.pid)).toBe(true);
    for (const tid of child.threads) expect(whole.has(tid)).toBe(false);
  });

  it('reads only the range it is given', async () => {
    const child = await threadedChild();
    kills.push(child.kill);
    expect(readProcTable({ first: child.pid + 1, last: child.pid + 40 }).has(child.pid)).toBe(false);
    expect(readProcTable({ first: child.pid - 40, last: child.pid - 1 }).has(child.pid)).toBe(false);
    // A range too long to read pid by pid is read from the listing, to the same effect.
    expect(readProcTable({ first: child.pid - 5000, last: child.pid }).has(child.pid)).toBe(true);
  });
});

import { spawn, type ChildProcess } from 'node:child_process';
import { once } from 'node:events';
import { afterEach, describe, expect, it } from 'vitest';
import { findMarkedProcesses, killProcesses } from '../../../src/runtime/marked-processes.js';

const NAME = 'PLURNK_EXECS_TEST_MARK';
const started: ChildProcess[] = [];

function sleeper(mark: string | undefined): ChildProcess {
  const env = { ...process.env, ...(mark === undefined ? {} : { [NAME]: mark }) };
  const child = spawn('sleep', ['30'], { env, stdio: 'ignore' });
  started.push(child);
  return child;
}

describe('findMarkedProcesses', () => {
  afterEach(() => {
    for (const child of started.splice(0)) child.kill('SIGKILL');
  });

  it('finds the living processes carrying name=value, with their command line, and no other', () => {
    const mark = `m${process.pid}-${Date.now()}`;
    const marked = sleeper(mark);
    sleeper(`${mark}-other`);
    sleeper(undefined);
    expect(findMarkedProcesses(NAME, mark)).toEqual([{ pid: marked.pid, command: 'sleep 30' }]);
  });

  it('no longer finds a process once killProcesses ended it', async () => {
    const mark = `k${process.pid}-${Date.now()}`;
    const marked = sleeper(mark);
    const exited = once(marked, 'exit');
    killProcesses(findMarkedProcesses(NAME, mark));
    await exited;
    expect(findMarkedProcesses(NAME, mark)).toEqual([]);
  });
});

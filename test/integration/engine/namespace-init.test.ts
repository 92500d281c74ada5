import { spawnSync } from 'node:child_process';
import { describe, expect, it } from 'vitest';
import { detectPidNamespace } from '../../../src/engine/engine-command.js';
import { detectInit, initCommand, type InitProgram } from '../../../src/engine/namespace-init.js';

const prefix = detectPidNamespace();
// Perl is the init where it runs; the sh init is what runs elsewhere, tested here on every machine.
const PROGRAMS: InitProgram[] = detectInit() === 'perl' ? ['perl', 'sh'] : ['sh'];

// A stand-in for the engine, run by the init as its child in a new PID namespace: it leaves 20
// orphans that end at once and one that lives on, signals the init with everything a leaf could
// send, then says what it sees of pid 1 and ends itself with SIGKILL, its orphan still asleep.
const STAND_IN = [
  'for i in 1 2 3 4 5 6 7 8 9 10; do (sleep 0.05 &); (setsid sleep 0.05 &); done',
  '(sleep 300 &)',
  'for signal in HUP INT QUIT TERM USR1 USR2 ALRM KILL STOP; do kill -s $signal 1; done',
  'sleep 1',
  'echo "zombies $(cat /proc/[0-9]*/stat 2>/dev/null | grep -c \') Z \')"',
  'echo "fd 3 $(test -e /proc/1/fd/3 && echo held || echo closed)"',
  "echo \"fds 0-2 $(readlink /proc/1/fd/0 /proc/1/fd/1 /proc/1/fd/2 | tr '\\n' ' ')\"",
  "echo \"title $(tr '\\0' ' ' < /proc/1/cmdline | cut -c1-40)\"",
  'kill -9 $$',
].join('\n');

/** Runs the stand-in under `program` as pid 1 of a new namespace, with a pipe on fd 3 as the engine has. */
function underInit(program: InitProgram) {
  const [file = 'unshare', ...args] = ['unshare', ...(prefix ?? []), ...initCommand(program, ['sh', '-c', STAND_IN])];
  return spawnSync(file, args, { stdio: ['ignore', 'pipe', 'pipe', 'pipe'], encoding: 'utf8', timeout: 60_000 });
}

describe.runIf(prefix !== null)('the init of an engine’s namespace', () => {
  it.each(PROGRAMS)(
    '%s reaps every orphan, ignores signals from inside, keeps no engine fd, and exits with the engine',
    (program) => {
      const ran = underInit(program);
      const lines = ran.stdout.trimEnd().split('\n');
      // No zombie after the orphans ended: the init waited for each.
      expect(lines[0]).toBe('zombies 0');
      // The engine's channel and pipes are the engine's alone: fd 3 closed, 0-2 on /dev/null.
      expect(lines.slice(1, 3)).toEqual(['fd 3 closed', 'fds 0-2 /dev/null /dev/null /dev/null ']);
      // Perl counts the 20 it reaped in its title; sh is named in its arguments.
      if (program === 'perl') expect(lines[3]).toBe('title plurnk-execs-init reaped=20');
      else expect(lines[3]).toMatch(/^title sh -c /);
      // SIGKILL ended the engine: the init exits at once with 128 + 9, the orphan's 300 s sleep not awaited.
      expect({ status: ran.status, signal: ran.signal, error: ran.error }).toEqual({
        status: 137,
        signal: null,
        error: undefined,
      });
    },
  );
});

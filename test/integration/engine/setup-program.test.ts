import { spawnSync } from 'node:child_process';
import { closeSync, existsSync, openSync } from 'node:fs';
import { afterAll, describe, expect, it } from 'vitest';
import { detectPidNamespace } from '../../../src/engine/engine-command.js';
import { findCgroupLayout } from '../../../src/engine/sandbox/cgroup-layout.js';
import { EngineCgroup } from '../../../src/engine/sandbox/engine-cgroup.js';
import { DROP_PRIVILEGES, detectSandboxSupport } from '../../../src/engine/sandbox/sandbox-support.js';
import { setupCommand, type SetupProgram } from '../../../src/engine/sandbox/setup-program.js';
import { scratchDir } from '../../helpers/scratch.js';

const prefix = detectPidNamespace();
const support = detectSandboxSupport(prefix);
// Perl sets the sandbox up where it runs; the sh setup is what runs elsewhere, tested here on every machine.
const PROGRAMS: SetupProgram[] = support.program === 'perl' ? ['perl', 'sh'] : ['sh'];
const layout = findCgroupLayout();
const cgroups: EngineCgroup[] = [];
afterAll(async () => {
  await Promise.all(cgroups.map((cgroup) => cgroup.remove()));
});

// A stand-in for the init and the engine, run after the setup and setpriv: it says which fds it
// holds, what it may write, whether its loopback is up (refused, not unreachable), which cgroup it is in.
const STAND_IN = (writable: string, outside: string) =>
  [
    'for fd in 3 4 40; do [ -e /proc/$$/fd/$fd ] && echo "holds fd $fd"; done',
    'grep ^CapEff /proc/self/status',
    `touch ${writable}/ok && echo "wrote ${writable}"`,
    `touch ${outside}/no 2>&1`,
    // In a UTS namespace of the test's own: were the knob writable, only that namespace's name would change.
    '{ echo sandboxed > /proc/sys/kernel/hostname; } 2>&1',
    'echo shared? > /dev/shm/plurnk-setup-test && echo "wrote /dev/shm"',
    "bash -c 'exec 3<>/dev/tcp/127.0.0.1/1' 2>&1 | sed -n '$s/.*: //p'",
    'grep -c plurnk-execs- /proc/self/cgroup',
    // A /dev of its own: the harmless devices, a pty instance and shared memory of its own, no other device node.
    "ls /dev | tr '\\n' ' '; echo",
    // util-linux's script opens a pty and runs tty on it (the line discipline adds the \r).
    "script -qc tty /dev/null | tr -d '\\r'",
  ].join('\n');

describe.runIf(prefix !== null && support.fsView === null && support.capabilities === null)(
  'the setup program of an engine’s sandbox',
  () => {
    it.each(PROGRAMS)(
      '%s joins the cgroup, closes inherited fds, locks the view but the writable directory, brings the loopback up',
      (program) => {
        const writable = scratchDir('plurnk-setup-writable');
        const outside = scratchDir('plurnk-setup-outside');
        const cgroup = 'missing' in layout ? null : new EngineCgroup(layout, { memoryBytes: 256 * 2 ** 20, pids: 64 });
        if (cgroup !== null) cgroups.push(cgroup);
        const directives = [
          'strict' as const,
          ...(cgroup?.procsFiles ?? []).map((file) => `cgroup:${file}` as const),
          'lock' as const,
          `rw:${writable}` as const,
          ...(support.network === null ? ['lo' as const] : []),
        ];
        const command = setupCommand(program, directives, [
          ...DROP_PRIVILEGES,
          'sh',
          '-c',
          STAND_IN(writable, outside),
        ]);
        const net = support.network === null ? ['--net'] : [];
        const held = openSync(writable, 'r');
        try {
          const ran = spawnSync('unshare', [...prefix!, '--uts', ...net, ...command], {
            stdio: ['ignore', 'pipe', 'pipe', 'pipe', held, ...Array<'ignore'>(35).fill('ignore'), held],
            encoding: 'utf8',
            timeout: 60_000,
          });
          expect({ status: ran.status, stderr: ran.stderr }).toEqual({ status: 0, stderr: '' });
          expect(ran.stdout.split('\n')).toEqual([
            // fd 3 (the engine's channel) stays; 4 and 40, inherited, are closed.
            'holds fd 3',
            'CapEff:\t0000000000000000',
            `wrote ${writable}`,
            `touch: cannot touch '${outside}/no': Read-only file system`,
            expect.stringMatching(/cannot create \/proc\/sys\/kernel\/hostname: Read-only file system$/),
            'wrote /dev/shm',
            support.network === null ? 'Connection refused' : expect.any(String),
            cgroup === null ? '0' : String(cgroup.hierarchies),
            'fd full null ptmx pts random shm stderr stdin stdout tty urandom zero ',
            '/dev/pts/0',
            '',
          ]);
          // The namespace's /dev/shm was its own: nothing reached the machine's.
          expect(existsSync('/dev/shm/plurnk-setup-test')).toBe(false);
        } finally {
          closeSync(held);
        }
      },
    );
  },
);

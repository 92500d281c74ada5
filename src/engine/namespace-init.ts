import { readlinkSync } from 'node:fs';
import { readProcFile } from '../runtime/proc-table.js';
import { runProbe, runProbeSync, type Probe } from './machine-probe.js';

// The init of an engine's PID namespace. Pid 1 of a namespace inherits every orphan a run
// leaves there (a `setsid` daemon, a double fork, `cmd &` in an `sh` body) and must wait for
// each, or it stays a zombie that holds a pid in the namespace and in the machine. Node waits
// only for the children it spawned itself, so the engine cannot be that init: a small program
// is, with the engine as its only child of its own (docs/isolation.md, *The namespace's init*).
//
// Its contract, the same for both programs below: it runs the engine, waits for every process
// the namespace gives it, and exits as soon as the engine ends, with the engine's status (128 +
// the signal, when one killed it); the kernel then kills whatever is left in the namespace. It
// keeps none of the engine's descriptors (the channel on fd 3, the stdout and stderr pipes), so
// only the engine holds them. It installs no signal handler: a namespace's init receives no
// signal from inside its namespace that it does not handle, so no leaf can end it. One init per
// engine: each engine's namespace has its own.
//
// The counting init is Perl, where Perl runs (`perl-base` is essential on Debian and Ubuntu): it
// reports how many processes it reaped in its process title, `plurnk-execs-init reaped=<n>`,
// which the service reads from outside the namespace (readInitReaped). Elsewhere POSIX `sh` is
// the init: dash and bash reap every child, adopted ones included, while `wait` waits for a job,
// but cannot say how many; and dash handles SIGINT itself, so the script ignores the signals a
// shell may catch.

/** The init's name, in its process title (Perl) or as its `$0` (sh). */
export const INIT_NAME = 'plurnk-execs-init';

/** Which program is the init: Perl counts what it reaps, `sh` only reaps. */
export type InitProgram = 'perl' | 'sh';

/**
 * The Perl init: `perl -e PERL_INIT -- <engine command…>`. No module: POSIX alone tripled its
 * start (about 30 ms) and added 2 MB. An inherited descriptor is closed through a handle opened
 * on it; `$!{EINTR}` loads Errno, a small one (under 1 ms).
 */
export const PERL_INIT = `
$0 = '${INIT_NAME} reaped=0';
my $engine = fork;
defined $engine or die "${INIT_NAME}: fork: $!\\n";
if ($engine == 0) {
  exec { $ARGV[0] } @ARGV;
  print STDERR "${INIT_NAME}: cannot run $ARGV[0]: $!\\n";
  exit 127;
}
if (opendir(my $fds, '/proc/self/fd')) {
  my @open = grep { /^\\d+$/ && $_ > 2 } readdir $fds;
  closedir $fds;
  for my $fd (@open) { open(my $handle, '<&=', $fd) and close $handle }
}
open STDIN, '<', '/dev/null';
open STDOUT, '>', '/dev/null';
open STDERR, '>', '/dev/null';
my $reaped = 0;
for (;;) {
  my $pid = waitpid(-1, 0);
  exit(($? & 127) ? 128 + ($? & 127) : $? >> 8) if $pid == $engine;
  if ($pid > 0) { $0 = '${INIT_NAME} reaped=' . ++$reaped; next }
  exit 70 unless $!{EINTR};
}
`;

/** The `sh` init: `sh -c SH_INIT plurnk-execs-init <engine command…>`. */
export const SH_INIT = `
"$@" &
engine=$!
exec 3>&- </dev/null >/dev/null 2>&1
trap '' HUP INT QUIT TERM USR1 USR2 ALRM
wait "$engine"
`;

let detected: InitProgram | undefined;

/**
 * The init this machine runs: Perl where `perl` runs the init itself (tried once per process,
 * outside any namespace, with `true` as the engine), else `sh`.
 */
export function detectInit(): InitProgram {
  detected ??= runProbeSync(initProbe());
  return detected;
}

/** {@link detectInit} without blocking (engine-command.ts, `prepareEngineStart`). */
export async function detectInitAhead(): Promise<InitProgram> {
  if (detected === undefined) {
    const program = await runProbe(initProbe());
    detected ??= program;
  }
  return detected;
}

function* initProbe(): Probe<InitProgram> {
  const [tried] = yield [{ file: 'perl', args: ['-e', PERL_INIT, '--', 'true'] }];
  return tried!.status === 0 ? 'perl' : 'sh';
}

/** The command line that runs `engine` (a program and its arguments) under the init. */
export function initCommand(program: InitProgram, engine: readonly string[]): string[] {
  return program === 'perl' ? ['perl', '-e', PERL_INIT, '--', ...engine] : ['sh', '-c', SH_INIT, INIT_NAME, ...engine];
}

const TITLE = new RegExp(`^${INIT_NAME} reaped=(\\d{1,15})\\0?$`);

/** How many processes the init `pid` (as the service sees it) has reaped; undefined when it is gone or does not count. */
export function readInitReaped(pid: number): number | undefined {
  const cmdline = readProcFile(`/proc/${pid}/cmdline`);
  return cmdline === undefined ? undefined : parseInitTitle(cmdline);
}

/**
 * The count in the Perl init's title (its `/proc/<pid>/cmdline`), or undefined for anything
 * else — the `sh` init's arguments, a title a leaf rewrote (it can, as root in the namespace).
 * Bounded and matched whole.
 */
export function parseInitTitle(cmdline: string): number | undefined {
  const count = cmdline.length > 64 ? undefined : TITLE.exec(cmdline)?.[1];
  return count === undefined ? undefined : Number(count);
}

/** This process's PID namespace (`pid:[<inode>]`), or null where it cannot be read (not Linux). */
export function pidNamespaceId(): string | null {
  try {
    return readlinkSync('/proc/self/ns/pid');
  } catch {
    return null;
  }
}

/**
 * Run by the engine before any leaf is loaded: the pid of its init (1) when it runs in a PID
 * namespace other than the service's (`servicePidNamespace`), with a `/proc` of that namespace
 * (it names this process by its pid here) and the namespace's init as its parent; else
 * undefined. Only then does `/proc` list the namespace alone, so only then may the engine sweep
 * it (namespace-sweep.ts), and only then are its orphans reaped.
 */
export function underNamespaceInit(servicePidNamespace: string | null): number | undefined {
  const own = pidNamespaceId();
  if (own === null || servicePidNamespace === null || own === servicePidNamespace) return undefined;
  let self: string;
  try {
    self = readlinkSync('/proc/self');
  } catch {
    return undefined;
  }
  return self === String(process.pid) && process.ppid === 1 ? process.ppid : undefined;
}

import { runProbe, runProbeSync, type Probe } from '../machine-probe.js';
// The program that sets an engine's sandbox up: the first program in the engine's new
// namespaces, pid 1 there, still privileged (root, or root of its user namespace). It joins the
// engine's cgroup, closes every descriptor but 0–3, locks the filesystem view read-only but for
// the writable directories, brings the loopback of a network namespace of its own up, and then
// execs what follows its directives — `setpriv`, which drops every privilege before it execs the
// namespace's init (namespace-init.ts), which starts the engine. Nothing after it can undo what
// it did: with no capability left, no mount can be changed (docs/isolation.md, *The sandbox*).
//
// Its arguments: directives, then `--`, then the command it execs.
// - `cgroup:<file>`: writes 0 (itself) to that `cgroup.procs`, so the engine and every process
//   it starts are in the engine's cgroup from their first instruction.
// - `lock`: remounts every mount read-only (each keeps its nosuid, nodev, noexec and atime
//   flags), but /proc, whose writable knobs (sys, sysrq-trigger, irq, bus, fs) are bound
//   read-only instead; a cap-less uid 0 may still write a sysctl, as a read-only /proc would
//   break `uid_map`. /dev becomes one of the namespace's own, read-only, as bubblewrap's `--dev`
//   builds it: null, zero, full, random, urandom and tty bound from the machine's, a devpts
//   instance of its own, a /dev/shm tmpfs of its own (no shared memory with the machine, gone
//   with the engine), and the fd links. A cap-less uid 0 could otherwise open every root-owned
//   device node: loop and zram devices, consoles, /dev/kvm, /dev/vsock (measured here).
// - `rw:<dir>` (after `lock`): binds `dir` on itself writable, and (Perl) the mounts under it
//   that were; a directory whose filesystem was read-only stays so (the view never widens a mount).
// - `lo`: brings the loopback up (in a network namespace of the engine's own).
// - `strict`: any failure ends the setup (exit 71); without it a failure is printed on stderr
//   and the setup goes on, and the engine's own measurement (sandbox-facts.ts) reports the layer.
//
// Two programs keep that contract, as for the init: Perl where it runs (perl-base is essential
// on Debian and Ubuntu), calling mount(2) itself — util-linux `mount` costs ~17 ms a call here,
// and a lock is ~20 of them — and a POSIX shell with `mount` and `ip` elsewhere: bash where it
// runs, since dash cannot name a descriptor above 9 (under dash it closes 4–9 only).

/** The setup's name in its messages. */
export const SETUP_NAME = 'plurnk-execs-setup';

/** Which program runs the setup: Perl calls mount(2) itself, `sh` runs `mount`. */
export type SetupProgram = 'perl' | 'sh';

/** One directive of the setup (see the file's opening comment). */
export type SetupDirective = `cgroup:${string}` | 'lock' | `rw:${string}` | 'lo' | 'strict';

/**
 * mount(2)'s number by Node's `process.arch`: 165 on x86-64, 40 where the kernel uses the
 * generic table, 21 on the older 32-bit ones. Perl's `syscall` needs it; elsewhere the `sh`
 * setup runs.
 */
const MOUNT_SYSCALL: Readonly<Record<string, number>> = {
  x64: 165,
  arm64: 40,
  riscv64: 40,
  loong64: 40,
  ia32: 21,
  arm: 21,
  ppc64: 21,
  s390x: 21,
};

/** mount(2)'s number on this machine, or undefined where the table above does not know it. */
export function mountSyscall(arch: string = process.arch): number | undefined {
  return MOUNT_SYSCALL[arch];
}

/**
 * The Perl setup: `perl -e PERL_SETUP -- <mount syscall> <directives…> -- <command…>`. No
 * module; flags by number (MS_RDONLY 1, MS_NOSUID 2, MS_NODEV 4, MS_NOEXEC 8, MS_REMOUNT 32,
 * MS_BIND 4096, MS_REC 16384); SIOCGIFFLAGS and SIOCSIFFLAGS on a UDP socket for the loopback.
 */
export const PERL_SETUP = `
my $NR = shift @ARGV;
my (@cgroups, @rw, $lock, $lo, $strict);
while (@ARGV) {
  my $d = shift @ARGV;
  last if $d eq '--';
  if ($d =~ /^cgroup:(.+)$/s) { push @cgroups, $1 }
  elsif ($d =~ /^rw:(.+)$/s) { push @rw, $1 }
  elsif ($d eq 'lock') { $lock = 1 } elsif ($d eq 'lo') { $lo = 1 } elsif ($d eq 'strict') { $strict = 1 }
}
sub fault { print STDERR "${SETUP_NAME}: @_\\n"; exit 71 if $strict }
for my $procs (@cgroups) {
  my $joined = open(my $f, '>', $procs);
  $joined &&= print {$f} "0\\n";
  $joined &&= close $f;
  fault("cannot join $procs: $!") unless $joined;
}
if (opendir(my $fds, '/proc/self/fd')) {
  my @open = grep { /^\\d+$/ && $_ > 3 } readdir $fds;
  closedir $fds;
  for my $fd (@open) { open(my $handle, '<&=', $fd) and close $handle }
}
my %FLAG = (ro => 1, nosuid => 2, nodev => 4, noexec => 8, noatime => 1024, nodiratime => 2048,
  relatime => 2097152, strictatime => 16777216);
sub flags { my $f = 0; $f |= $FLAG{$_} // 0 for split /,/, $_[0]; $f }
sub mnt { my ($from, $to, $type, $flags, $data) = @_;
  return 1 if syscall($NR, $from, $to, $type, $flags + 0, $data) == 0;
  fault("mount $to: $!");
  return 0 }
sub under { my ($path, $dir) = @_; $dir eq '/' || $path eq $dir || index($path, "$dir/") == 0 }
if ($lock) {
  my (@mounts, %top);
  open(my $info, '<', '/proc/self/mountinfo') or fault("mountinfo: $!");
  while (<$info>) {
    my @field = split ' ';
    (my $at = $field[4]) =~ s/\\\\([0-7]{3})/chr oct $1/ge;
    push @mounts, $at unless exists $top{$at};
    $top{$at} = flags($field[5]);
  }
  close $info;
  # The /dev of its own first, while the machine's devices can still be bound writable.
  my $dev = -d '/dev/shm' && mnt('tmpfs', '/dev/shm', 'tmpfs', 2 | 8, 'mode=755');
  if ($dev) {
    for my $node (qw(null zero full random urandom tty)) {
      next unless -e "/dev/$node";
      open(my $file, '>', "/dev/shm/$node") or next;
      close $file;
      mnt("/dev/$node", "/dev/shm/$node", 0, 4096, 0);
    }
    mkdir "/dev/shm/$_" for qw(pts shm);
    mnt('devpts', '/dev/shm/pts', 'devpts', 2 | 8, 'newinstance,ptmxmode=0666,mode=620');
    mnt('tmpfs', '/dev/shm/shm', 'tmpfs', 2 | 4, 'mode=1777');
    symlink "/proc/self/fd$_->[1]", "/dev/shm/$_->[0]" for ['fd', ''], ['stdin', '/0'], ['stdout', '/1'], ['stderr', '/2'];
    symlink 'pts/ptmx', '/dev/shm/ptmx';
    $dev = mnt('/dev/shm', '/dev', 0, 8192, 0) && mnt(0, '/dev', 0, 32 | 4096 | 1 | 2 | 8, 0);
  }
  for my $at (@mounts) { mnt(0, $at, 0, 32 | 4096 | 1 | $top{$at}, 0) unless under($at, '/proc') || ($dev && under($at, '/dev')) }
  for my $knob ('/proc/sys', '/proc/sysrq-trigger', '/proc/irq', '/proc/bus', '/proc/fs') {
    next unless -e $knob;
    mnt($knob, $knob, 0, 4096 | 16384, 0);
    mnt(0, $knob, 0, 32 | 4096 | 1 | 2 | 4 | 8, 0);
  }
  for my $dir (@rw) {
    my ($home) = sort { length $b <=> length $a } grep { under($dir, $_) } @mounts;
    if (!-d $dir || !defined $home || $top{$home} & 1) { fault("$dir stays read-only"); next }
    mnt($dir, $dir, 0, 4096 | 16384, 0);
    mnt(0, $dir, 0, 32 | 4096 | $top{$home}, 0);
    for my $at (@mounts) { mnt(0, $at, 0, 32 | 4096 | $top{$at}, 0) if $at ne $dir && under($at, $dir) && !($top{$at} & 1) }
  }
}
if ($lo) {
  my ($s, $ifr) = (undef, pack('a16 x24', 'lo'));
  my $up = socket($s, 2, 2, 0) && ioctl($s, 0x8913, $ifr);
  $up &&= ioctl($s, 0x8914, pack('a16 s x22', 'lo', unpack('x16 s', $ifr) | 1));
  fault("loopback: $!") unless $up;
}
exec { $ARGV[0] } @ARGV;
print STDERR "${SETUP_NAME}: cannot run $ARGV[0]: $!\\n";
exit 127;
`;

/** The `sh` setup: `sh -c SH_SETUP plurnk-execs-setup <directives…> -- <command…>`. */
export const SH_SETUP = `
strict= lock=
table=$(cat /proc/self/mountinfo)
fault() { echo "$0: $*" >&2; [ -z "$strict" ] || exit 71; }
# A /dev of the engine's own, built on /dev/shm and moved over /dev, before the lock (see PERL_SETUP).
new_dev() {
  mount -n -t tmpfs -o nosuid,noexec,mode=755 tmpfs /dev/shm || { fault "mount /dev/shm"; return; }
  for node in null zero full random urandom tty; do
    [ -e "/dev/$node" ] && : > "/dev/shm/$node" || continue
    mount -n --bind "/dev/$node" "/dev/shm/$node" || fault "mount /dev/$node"
  done
  mkdir /dev/shm/pts /dev/shm/shm
  mount -n -t devpts -o nosuid,noexec,newinstance,ptmxmode=0666,mode=620 devpts /dev/shm/pts || fault "mount /dev/pts"
  mount -n -t tmpfs -o nosuid,nodev,mode=1777 tmpfs /dev/shm/shm || fault "mount /dev/shm"
  ln -s /proc/self/fd /dev/shm/fd; ln -s pts/ptmx /dev/shm/ptmx
  ln -s /proc/self/fd/0 /dev/shm/stdin; ln -s /proc/self/fd/1 /dev/shm/stdout; ln -s /proc/self/fd/2 /dev/shm/stderr
  { mount -n --move /dev/shm /dev && mount -n -o remount,bind,ro,nosuid,noexec /dev && dev=1; } || fault "mount /dev"
}
while [ $# -gt 0 ]; do
  d=$1; shift
  case $d in
  --) break ;;
  strict) strict=1 ;;
  cgroup:*) { echo 0 > "\${d#cgroup:}"; } 2>/dev/null || fault "cannot join \${d#cgroup:}" ;;
  lock)
    lock=1 dev=
    [ -d /dev/shm ] && new_dev
    while read -r _ _ _ _ at opts _; do
      case $at in /proc|/proc/*) continue ;; /dev|/dev/*) [ -z "$dev" ] || continue ;; esac
      at=$(printf '%b' "$at")
      mount -n -o "remount,bind,ro\${opts#r[ow]}" "$at" || fault "mount $at"
    done <<TABLE
$table
TABLE
    for knob in /proc/sys /proc/sysrq-trigger /proc/irq /proc/bus /proc/fs; do
      [ -e "$knob" ] || continue
      { mount -n --rbind "$knob" "$knob" && mount -n -o remount,bind,ro,nosuid,nodev,noexec "$knob"; } || fault "mount $knob"
    done ;;
  rw:*)
    dir=\${d#rw:} home= opts=
    while read -r _ _ _ _ at o _; do
      at=$(printf '%b' "$at") under=\${at%/}/
      case $dir/ in "$under"*) [ \${#at} -lt \${#home} ] || { home=$at opts=$o; } ;; esac
    done <<TABLE
$table
TABLE
    case $opts in rw*) ;; *) fault "$dir stays read-only"; continue ;; esac
    [ -d "$dir" ] && [ -n "$lock" ] || { fault "$dir stays read-only"; continue; }
    { mount -n --rbind "$dir" "$dir" && mount -n -o "remount,bind,\${opts}" "$dir"; } || fault "mount $dir" ;;
  lo) ip link set lo up 2>/dev/null || fault "loopback: no ip, or it failed" ;;
  esac
done
wide=; if (eval 'exec 10>&-') 2>/dev/null; then wide=1; fi
for f in /proc/$$/fd/*; do
  fd=\${f##*/}
  [ "$fd" -gt 3 ] 2>/dev/null || continue
  if [ "$fd" -le 9 ] || [ -n "$wide" ]; then eval "exec $fd>&-"; fi
done
exec "$@"
`;

let shell: string | undefined;

/** The shell that runs the `sh` setup: bash where it runs, as it can close a descriptor above 9; else `sh`. */
function setupShell(): string {
  shell ??= runProbeSync(shellProbe());
  return shell;
}

/** {@link setupShell} learned without blocking, before a setup command is built (sandbox-support.ts). */
export async function detectSetupShellAhead(): Promise<void> {
  if (shell !== undefined) return;
  const found = await runProbe(shellProbe());
  shell ??= found;
}

function* shellProbe(): Probe<string> {
  const [tried] = yield [{ file: 'bash', args: ['-c', 'exit 0'] }];
  return tried!.status === 0 ? 'bash' : 'sh';
}

/** The command line that runs `next` (a program and its arguments) after the setup's `directives`. */
export function setupCommand(
  program: SetupProgram,
  directives: readonly SetupDirective[],
  next: readonly string[],
): string[] {
  if (program === 'sh') return [setupShell(), '-c', SH_SETUP, SETUP_NAME, ...directives, '--', ...next];
  return ['perl', '-e', PERL_SETUP, '--', String(mountSyscall()), ...directives, '--', ...next];
}

import { spawnSync, type StdioOptions } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import {
  chmodSync,
  chownSync,
  closeSync,
  copyFileSync,
  existsSync,
  mkdirSync,
  openSync,
  readdirSync,
  rmdirSync,
} from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { detectPidNamespace } from '../../../src/engine/engine-command.js';
import { findCgroupLayout } from '../../../src/engine/sandbox/cgroup-layout.js';
import { ownerOfCgroup } from '../../../src/engine/sandbox/cgroup-sweep.js';
import { scratchDir } from '../../helpers/scratch.js';
import { zooDirs } from '../../helpers/zoo.js';

const SERVICE = fileURLToPath(new URL('../../helpers/sandboxed-service.mjs', import.meta.url));
const COMMON = fileURLToPath(new URL('../../../src/leaves/common', import.meta.url));
const root = process.getuid?.() === 0;
/** The services this machine can run: as root, root and `nobody`; otherwise this user alone. */
const USERS = root ? (['root', 'nobody'] as const) : (['this user'] as const);
/** The fd the service inherits without close-on-exec, as issue 25's did (libuv leaves it to every child). */
const INHERITED_FD = 40;

/**
 * Runs sandboxed-service.mjs as `user` with fd 40 open and a secret in its environment, and
 * returns its report: what each of a leaf's attempts got, and the host's isolation().
 */
function runService(user: (typeof USERS)[number]) {
  const inside = scratchDir('plurnk-sandbox-inside');
  const outside = scratchDir('plurnk-sandbox-outside');
  if (user === 'nobody') for (const dir of [inside, outside]) chownSync(dir, 65534, 65534);
  const secret = `plurnk-secret-${randomUUID()}`;
  const config = JSON.stringify({ packageDirs: [COMMON, ...zooDirs('sync-buffer-bomb')], inside, outside, secret });
  const node = [user === 'nobody' ? nodeForNobody() : process.execPath, SERVICE, config];
  const asNobody = [...AS_NOBODY, ...node];
  // `nobody` in the cgroups delegated to it (v1, where root may hand a subtree to a user), joined before it runs.
  const delegation = user === 'nobody' ? delegateCgroups() : [];
  const joined = user === 'nobody' ? ['sh', '-c', JOIN_THEN_RUN, 'join', ...delegation, '--', ...asNobody] : node;
  const [file, ...args] = joined;
  const held = openSync(inside, 'r');
  try {
    // stdio[40] is dup'ed onto the service's fd 40 without close-on-exec.
    const stdio: StdioOptions = ['ignore', 'pipe', 'pipe', ...Array<'ignore'>(INHERITED_FD - 3).fill('ignore'), held];
    const ran = spawnSync(file!, args, {
      cwd: inside,
      env: { ...process.env, PLURNK_SANDBOX_TEST_SECRET: secret },
      stdio,
      encoding: 'utf8',
      timeout: 240_000,
    });
    // How it ended and what it printed, in one value: a failure shows all three.
    expect({ status: ran.status, signal: ran.signal, stderr: ran.stderr }).toEqual({
      status: 0,
      signal: null,
      stderr: '',
    });
    // `sh` and setpriv exec the service: the pid its engines' cgroups are named for.
    return {
      report: JSON.parse(ran.stdout) as Report,
      inside,
      outside,
      delegated: delegation.length > 0,
      pid: ran.pid,
    };
  } finally {
    closeSync(held);
  }
}

const AS_NOBODY = ['setpriv', '--reuid=65534', '--regid=65534', '--clear-groups'];

/**
 * A Node `nobody` can run, as the service and as its engines: this one, or a copy of it where
 * this one lies in a directory closed to other users (CI installs Node 26 under `mktemp -d`,
 * mode 0700; nvm under /root). A service whose engines cannot exec its Node fails to boot, and
 * says so: "plurnk-execs-init: cannot run …/node: Permission denied".
 */
function nodeForNobody(): string {
  const tried = spawnSync('setpriv', [...AS_NOBODY, 'sh', '-c', 'exec "$0" -e 0', process.execPath], {
    stdio: 'ignore',
  });
  if (tried.status === 0) return process.execPath;
  const dir = scratchDir('plurnk-sandbox-node');
  chmodSync(dir, 0o755);
  const copy = join(dir, 'node');
  copyFileSync(process.execPath, copy);
  chmodSync(copy, 0o755);
  return copy;
}

/** `sh -c JOIN_THEN_RUN join <cgroup.procs>… -- <command>`: the shell writes itself into each, then execs the command. */
const JOIN_THEN_RUN = 'while [ "$1" != -- ]; do echo $$ > "$1"; shift; done; shift; exec "$@"';
const delegated: string[] = [];
afterAll(async () => {
  // The services are gone, and their engines' cgroups with them: only the delegated directories are left.
  for (const dir of delegated.splice(0)) rmdirSync(dir);
});

/**
 * A cgroup v1 memory and pids directory under this (root) process's own, owned by `nobody` as a
 * delegated subtree is; their `cgroup.procs` files. None where this machine has no v1 layout.
 */
function delegateCgroups(): string[] {
  const layout = findCgroupLayout();
  if ('missing' in layout || layout.version !== 1) return [];
  const dirs = [layout.memory, layout.pids].map((parent) => join(parent, `plurnk-test-delegated-${randomUUID()}`));
  for (const dir of dirs) {
    mkdirSync(dir);
    delegated.push(dir);
    for (const name of ['', ...readdirSync(dir)]) chownSync(join(dir, name), 65534, 65534);
  }
  return dirs.map((dir) => join(dir, 'cgroup.procs'));
}

interface Attempt {
  status: number;
  stdout: string;
  stderr: string;
  forcedEnd: { reason: string; cause?: string } | null;
  sandbox: { forksRefused: number; oomKills: number } | null;
}
interface Report {
  isolation: Record<string, unknown> & { cgroup: { memoryBytes: number; pids: number } | null };
  privileges: Attempt;
  writes: Attempt;
  proc: Attempt;
  devices: Attempt;
  fds: Attempt;
  network: Attempt;
  flood?: Attempt;
  afterFlood?: Attempt;
  bomb?: Attempt;
  afterBomb?: Attempt;
  crashes: { end: string; deathCause: string | null }[];
}

// Issue 25's attacks, from a leaf's `sh` child in the process tier, against a service running as
// root and as an ordinary user: each is refused by a layer the host reports in effect. One
// service per user runs them all (sandboxed-service.mjs); each test judges one.
describe.runIf(detectPidNamespace() !== null).each(USERS)('the sandbox of an engine, the service run as %s', (user) => {
  let ran: ReturnType<typeof runService>;
  beforeAll(() => {
    ran = runService(user);
  }, 300_000);

  it('reports every layer it holds, measured from inside the engine', () => {
    expect(ran.report.isolation).toMatchObject({ capabilities: 'none', fsView: 'read-only', network: 'own' });
    // A cgroup wherever one can be had: root's own here, `nobody`'s where root delegated one.
    if (user !== 'this user') expect(ran.report.isolation.cgroup !== null).toBe(hasCgroup());
  });

  it('leaves a child every capability set empty and no_new_privs, uid 0 or not', () => {
    expect(ran.report.privileges.stdout).toBe(
      ['CapInh', 'CapPrm', 'CapEff', 'CapBnd', 'CapAmb'].map((set) => `${set}:\t0000000000000000\n`).join('') +
        'NoNewPrivs:\t1\n',
    );
  });

  it("fails a child's write outside fsWrite with EROFS, where the user may write, and lets it write inside", () => {
    const { report, inside, outside } = ran;
    expect(report.writes.stdout).toBe('inside written\n');
    expect(report.writes.stderr).toBe(`touch: cannot touch '${outside}/by-a-child': Read-only file system\n`);
    expect([existsSync(join(outside, 'by-a-child')), existsSync(join(inside, 'by-a-child'))]).toEqual([false, true]);
  });

  it('shows a child no device node but the harmless ones: /dev is the engine’s own', () => {
    expect(ran.report.devices.stdout).toBe('fd full null ptmx pts random shm stderr stdin stdout tty urandom zero ');
  });

  it("keeps the service's fd from the child, the engine and the namespace's init", () => {
    expect(ran.report.fds.stdout).toBe('looked\n');
  });

  it("refuses `umount /proc`: the service's environment is in no process the child can see", () => {
    expect(ran.report.proc.stderr).toBe('umount: /proc: must be superuser to unmount.\n');
    expect(ran.report.proc.stdout).toBe('processes showing the secret: 0\n');
  });

  it("refuses a connect to the service's loopback listener with permissions.network false", () => {
    expect(ran.report.network.stdout).toBe('refused\n');
  });

  it('ends a process flood at the pids bound, counts the refusals, and keeps serving', () => {
    const { isolation, flood, afterFlood } = ran.report;
    if (isolation.cgroup === null) return expectNoCgroupSaid(isolation);
    expect(isolation.cgroup).toEqual({ memoryBytes: 256 * 1024 * 1024, pids: 64 });
    expect(flood).toMatchObject({ stdout: '', stderr: expect.stringMatching(/Cannot fork/) });
    expect(flood!.sandbox!.forksRefused).toBeGreaterThan(0);
    expect(afterFlood).toMatchObject({ status: 200, stdout: 'still serving\n' });
  });

  it('ends a memory bomb in the engine at its cgroup bound: engine-crashed, engine-out-of-memory, a new engine serves', () => {
    const { isolation, bomb, afterBomb, crashes } = ran.report;
    if (isolation.cgroup === null) return expectNoCgroupSaid(isolation);
    // The one engine death of the service, as plurnk-execs:engine:crash published it.
    expect(crashes).toEqual([{ end: 'engine-crashed', deathCause: 'engine-out-of-memory' }]);
    expect(bomb).toMatchObject({
      status: 500,
      forcedEnd: { reason: 'engine-crashed', cause: 'engine-out-of-memory' },
      sandbox: { oomKills: 1 },
    });
    expect(afterBomb).toMatchObject({ status: 200, stdout: 'ok' });
    // Every engine's cgroup of this service went with it (another's, killed outright, is a later sweep's: cgroup-sweep.test.ts).
    expect(cgroupsOf(ran.pid)).toEqual([]);
  });

  /** No bound where no cgroup can be had: said, never silent, and the host ran every attempt above. */
  function expectNoCgroupSaid(isolation: Report['isolation']) {
    expect(isolation.missing).toMatchObject({ cgroup: expect.stringMatching(/^no writable cgroup: /) });
    if (user !== 'this user') expect(hasCgroup()).toBe(false);
  }

  /** Whether this service should have had a cgroup: root wherever this (root) process finds a layout, `nobody` where one was delegated. */
  function hasCgroup(): boolean {
    return user === 'root' ? !('missing' in findCgroupLayout()) : ran.delegated;
  }
});

/** The engine cgroups of service `pid`, anywhere this machine's v1 or v2 hierarchies are mounted. */
function cgroupsOf(pid: number): string[] {
  const left: string[] = [];
  const walk = (dir: string, depth: number) => {
    if (depth > 4) return;
    let names: string[];
    try {
      names = readdirSync(dir, { withFileTypes: true })
        .filter((entry) => entry.isDirectory())
        .map((entry) => entry.name);
    } catch {
      return;
    }
    for (const name of names) {
      if (ownerOfCgroup(name) === pid) left.push(join(dir, name));
      else walk(join(dir, name), depth + 1);
    }
  };
  walk('/sys/fs/cgroup', 0);
  return left;
}

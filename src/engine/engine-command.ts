import { join, resolve } from 'node:path';
import { isBundleFresh } from '../runtime/bundle-freshness.js';
import { packageRoot } from '../runtime/package-root.js';
import { runProbe, runProbeSync, type Probe } from './machine-probe.js';
import { detectInit, detectInitAhead, initCommand, type InitProgram } from './namespace-init.js';
import { EngineSandbox, type SandboxRequest } from './sandbox/engine-sandbox.js';
import { detectSandboxSupportAhead } from './sandbox/sandbox-support.js';

/** How the engine process is started, and which containment that asks for. */
export interface EngineCommand {
  readonly file: string;
  readonly args: string[];
  /** The engine is started in a new PID namespace under its init (confirmed later by the engine, namespace-init.ts). */
  readonly pidNamespace: boolean;
  /** The program that is pid 1 of that namespace and reaps its orphans; null without a namespace. */
  readonly init: InitProgram | null;
  /** Node's permission model is switched on (confirmed later by the engine seeing `process.permission`). */
  readonly permissionModel: boolean;
  /** The engine's sandbox, whose setup runs first (sandbox/engine-sandbox.ts); null for a command built without one. */
  readonly sandbox: EngineSandbox | null;
}

/** The engine entry bundled into one module by scripts/bundle-thread.js (at this depth, so paths relative to it hold). */
const ENGINE_BUNDLE = 'dist/engine/bundle/engine-entry.js';

/**
 * Path of the compiled engine entry: the engine always runs `dist/` JavaScript, like the threads,
 * and from its bundle while that is fresh — loading its ~100 modules one by one was the largest
 * part of an engine's start, which every package's engine pays at boot and at each restart
 * (docs/performance.md, *Engines*).
 */
export function engineEntryPath(): string {
  const root = packageRoot();
  return isBundleFresh(root, ENGINE_BUNDLE)
    ? join(root, ENGINE_BUNDLE)
    : join(root, 'dist', 'engine', 'engine-entry.js');
}

const NAMESPACE = ['--pid', '--fork', '--kill-child', '--mount', '--mount-proc'];
let cachedPrefix: string[] | null | undefined;

/**
 * The `unshare` arguments that make a new PID namespace here, or null when none can be had:
 * tried once per process with `true` as the program — as root the namespace alone, otherwise
 * inside a user namespace (`--user --map-root-user`) where unprivileged ones are enabled.
 * Not Linux, no util-linux `unshare`, or the kernel refuses ⇒ null (the host says so).
 */
export function detectPidNamespace(): string[] | null {
  if (cachedPrefix === undefined) cachedPrefix = runProbeSync(pidNamespaceProbe());
  return cachedPrefix;
}

function* pidNamespaceProbe(): Probe<string[] | null> {
  if (process.platform !== 'linux') return null;
  const candidates = process.getuid?.() === 0 ? [NAMESPACE] : [['--user', '--map-root-user', ...NAMESPACE]];
  for (const prefix of candidates) {
    const [tried] = yield [{ file: 'unshare', args: [...prefix, 'true'] }];
    if (tried!.status === 0) return prefix;
  }
  return null;
}

/**
 * Learns, without blocking and with the independent commands run at once, what every engine's
 * command needs to know of this machine (the namespace, the init, the sandbox's layers), so the
 * first engine's start does not wait for it: the front door runs it beside discovery. The same
 * verdicts as when they are learned on first use; never rejects.
 */
export async function prepareEngineStart(): Promise<void> {
  try {
    const [prefix] = await Promise.all([
      cachedPrefix === undefined ? runProbe(pidNamespaceProbe()) : cachedPrefix,
      detectInitAhead(),
    ]);
    if (cachedPrefix === undefined) cachedPrefix = prefix;
    await detectSandboxSupportAhead(cachedPrefix);
  } catch {
    // A command that could not even be spawned: what is not known yet is learned on first use.
  }
}

/**
 * Node's permission model for the engine (`--permission` on Node ≥ 22, `--experimental-permission`
 * on 20): reads anywhere, writes only under `fsWrite`, worker threads and child processes
 * allowed (the leaves need both), and on Node ≥ 25 the network; no inspector, no
 * `process.binding`, and native addons only when `addons` is asked for.
 */
export function permissionFlags(fsWrite: readonly string[], addons = false): string[] {
  const major = Number(process.versions.node.split('.')[0]);
  const model = major >= 22 ? '--permission' : '--experimental-permission';
  // One flag per directory: Node 20 reads a comma-separated list as one path. Each directory
  // once: Node 20 crashes (SIGSEGV in its permission tree) on a directory given twice, as the
  // default list does when the host's cwd is the temp directory.
  const dirs = [...new Set(fsWrite.map((dir) => resolve(dir)))];
  return [
    model,
    '--allow-fs-read=*',
    ...dirs.map((dir) => `--allow-fs-write=${dir}`),
    '--allow-worker',
    '--allow-child-process',
    // Node ≥ 25 puts the network under the model: leaves may use it in the thread tier, so they
    // may here, and the engine's own channel (a net.Socket over the Unix socketpair on fd 3) is
    // refused without it. The model here bounds file writes, not the network. No child of a
    // leaf inherits any of these flags (worker/child-permission.ts).
    ...(process.allowedNodeEnvironmentFlags.has('--allow-net') ? ['--allow-net'] : []),
    // An addon is native code in the engine: the permission model cannot hold it, so it is opt-in.
    ...(addons ? ['--allow-addons'] : []),
  ];
}

/**
 * A bench aid, not an option: with `PLURNK_EXECS_ENGINE_PROF_DIR` set in the service's
 * environment, each engine writes V8's tick log there, one file per isolate (its main thread and
 * each executor thread), for `node --prof-process`. `--cpu-prof` writes nothing under the
 * permission model (it needs the inspector); V8's own log does, and is flushed when close() lets
 * the engine exit.
 */
function profileFlags(): string[] {
  const dir = process.env.PLURNK_EXECS_ENGINE_PROF_DIR;
  return dir === undefined || dir === '' ? [] : ['--prof', `--logfile=${join(resolve(dir), 'engine-%p.log')}`];
}

/**
 * The command that starts one engine: `unshare … <setup> setpriv … <init> node <flags>
 * engine-entry.js` where a namespace can be had — the sandbox's setup (sandbox/setup-program.ts)
 * first, then `setpriv` dropping every privilege, then the namespace's init (namespace-init.ts)
 * running the engine as its child. `sandbox` asks for the engine's sandbox (its cgroup is made
 * here: release it once the engine is gone); null builds the bare command.
 */
export function engineCommand(
  fsWrite: readonly string[],
  addons = false,
  sandbox: SandboxRequest | null = null,
): EngineCommand {
  const node = [process.execPath, ...permissionFlags(fsWrite, addons), ...profileFlags(), engineEntryPath()];
  const prefix = detectPidNamespace();
  const box = sandbox === null ? null : new EngineSandbox(sandbox, prefix);
  if (prefix === null) {
    const [file = process.execPath, ...args] = box === null ? node : box.command(node).command;
    return { file, args, pidNamespace: false, init: null, permissionModel: true, sandbox: box };
  }
  const init = detectInit();
  const underInit = initCommand(init, node);
  const { unshare, command } = box === null ? { unshare: [], command: underInit } : box.command(underInit);
  return {
    file: 'unshare',
    args: [...prefix, ...unshare, ...command],
    pidNamespace: true,
    init,
    permissionModel: true,
    sandbox: box,
  };
}

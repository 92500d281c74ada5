import { createRequire, syncBuiltinESMExports } from 'node:module';
import { RUN_MARKER } from '../runtime/run-marker.js';
import { isArray, lockProperty, objectKeys, stringStartsWith } from './guard-kit.js';
import type { OwnProcesses } from './own-processes.js';

const require = createRequire(import.meta.url);

/** What `Process.prototype.spawn` (the handle under every asynchronous child_process API) receives. */
interface HandleSpawnOptions {
  detached?: boolean;
  envPairs?: string[];
  stdio?: { type: string; fd?: number }[];
}

type ChildProcessModule = typeof import('node:child_process');
/** Node 26's spawn flag for `detached`. */
const DETACHED = 1;
type SyncResult = { pid?: number; status: number | null; stdout: unknown; stderr: unknown; error?: Error };

/**
 * Makes every child a leaf starts findable and reapable, whatever API it used. `spawn`,
 * `exec`, `execFile` and `fork` all end in one method, the process handle's `spawn`: it is
 * replaced (and locked) so each child starts detached — a session and process group of its
 * own, never the host's group — with `PLURNK_EXECS_RUN=<marker>` in its environment, and its
 * group is reported to the host at once, as SubprocessExecutor would. A child never inherits
 * the host's stdin (fd 0 becomes `ignore`), and a leaf that calls the handle without an
 * environment gets the thread's, not the host process's real one. `spawnSync`, `execSync` and
 * `execFileSync` start their child detached and marked too; they cannot report it before they
 * return (the thread is blocked), so they report its group right after — what the child left
 * running in its group is reaped with the run — and a child that blocks its thread past
 * `unresponsiveMs` is found by its marker when the host ends the run. The ESM bindings of
 * `node:child_process` are synced with the replaced exports.
 */
export function guardChildProcesses(own: OwnProcesses, report: (pgid: number) => void): void {
  const childProcess = require('node:child_process') as ChildProcessModule;
  const handle = (new childProcess.ChildProcess() as unknown as { _handle: object })._handle;
  const handleProto = Object.getPrototypeOf(handle) as { spawn: (this: object, ...args: unknown[]) => number };
  const callSpawnHandle = Function.prototype.call.bind(handleProto.spawn) as (
    self: object,
    ...args: unknown[]
  ) => number;
  const env = process.env;
  const started = (pid: number) => {
    own.adopt(pid);
    report(pid);
  };
  // Node up to 24 passes one options object; Node 26 passes (file, args, cwd, envPairs, stdio,
  // flags, uid, gid), where flag 1 is `detached`.
  function spawn(this: object, ...args: unknown[]): number {
    const marker = own.marker();
    const error =
      args.length > 1 || typeof args[0] !== 'object' || args[0] === null
        ? callSpawnHandle(
            this,
            args[0],
            args[1],
            args[2],
            markedEnvPairs(args[3], marker, env),
            safeStdio(args[4]),
            +(args[5] as number) | 0 | DETACHED,
            args[6],
            args[7],
          )
        : callSpawnHandle(this, handleOptions(args[0] as HandleSpawnOptions & Record<string, unknown>, marker, env));
    const pid = (this as { pid?: unknown }).pid;
    if (error === 0 && typeof pid === 'number' && pid > 1) started(pid);
    return error;
  }
  lockProperty(handleProto, 'spawn', spawn);

  const spawnSync = childProcess.spawnSync.bind(childProcess) as (...args: unknown[]) => SyncResult;
  const guardedSpawnSync = (file: unknown, args: unknown, options: unknown): SyncResult => {
    const ret =
      Array.isArray(args) || args == null
        ? spawnSync(file, args, markOptions(options, own.marker()))
        : typeof args === 'object'
          ? spawnSync(file, markOptions(args, own.marker()))
          : spawnSync(file, args, options);
    if (typeof ret?.pid === 'number' && ret.pid > 1) started(ret.pid);
    return ret;
  };
  const stderr = process.stderr;
  const replacements: Partial<Record<keyof ChildProcessModule, unknown>> = {
    spawnSync: function spawnSync(file: unknown, args?: unknown, options?: unknown) {
      return guardedSpawnSync(file, args, options);
    },
    // Node's execSync and execFileSync, over the guarded spawnSync so the child's pid is known.
    execSync: function execSync(command: unknown, options?: unknown) {
      const opts = { ...(options as object) } as { shell?: unknown; stdio?: unknown };
      opts.shell = typeof opts.shell === 'string' ? opts.shell : true;
      const ret = guardedSpawnSync(command, [], opts);
      if (!opts.stdio && ret.stderr) stderr.write(ret.stderr as string);
      return settleSync(ret, String(command));
    },
    execFileSync: function execFileSync(file: unknown, args?: unknown, options?: unknown) {
      if (!Array.isArray(args) && args !== null && typeof args === 'object') [options, args] = [args, []];
      const list = Array.isArray(args) ? [...(args as unknown[])] : [];
      const opts = (options ?? {}) as { stdio?: unknown; argv0?: unknown };
      const ret = guardedSpawnSync(file, list, opts);
      if (!opts.stdio && ret.stderr) stderr.write(ret.stderr as string);
      return settleSync(ret, [opts.argv0 ?? file, ...list].join(' '));
    },
  };
  for (const [name, value] of Object.entries(replacements)) lockProperty(childProcess, name, value);
  syncBuiltinESMExports();
}

/**
 * The options the handle's native spawn reads (Node up to 24), each read once into a fresh
 * object (a leaf that calls the handle itself may pass getters), detached, marked, and with
 * stdin never the host's. Written with index loops and captured intrinsics: a leaf that
 * patched Array.prototype.push must not drop the marker.
 */
function handleOptions(
  options: HandleSpawnOptions & Record<string, unknown>,
  marker: string,
  env: NodeJS.ProcessEnv,
): object {
  return {
    file: options.file,
    args: options.args,
    cwd: options.cwd,
    envPairs: markedEnvPairs(options.envPairs, marker, env),
    uid: options.uid,
    gid: options.gid,
    detached: true,
    stdio: safeStdio(options.stdio),
    windowsHide: options.windowsHide,
    windowsVerbatimArguments: options.windowsVerbatimArguments,
  };
}

/** The child's environment: the given pairs (or the thread's env) without any marker, plus the task's. */
function markedEnvPairs(source: unknown, marker: string, env: NodeJS.ProcessEnv): unknown[] {
  const prefix = `${RUN_MARKER}=`;
  const pairs: unknown[] = [];
  if (isArray(source)) {
    for (let i = 0; i < source.length; i++) {
      const pair: unknown = source[i];
      if (typeof pair !== 'string' || !stringStartsWith(pair, prefix)) pairs[pairs.length] = pair;
    }
  } else {
    const keys = objectKeys(env);
    for (let i = 0; i < keys.length; i++) pairs[pairs.length] = `${keys[i]}=${env[keys[i]!]}`;
  }
  pairs[pairs.length] = `${prefix}${marker}`;
  return pairs;
}

/** A copy of the stdio entries in which the child's stdin is never the host's (fd 0 or inherit ⇒ ignore). */
function safeStdio(given: unknown): unknown[] {
  const stdio: unknown[] = [];
  if (isArray(given)) for (let i = 0; i < given.length; i++) stdio[i] = given[i];
  const stdin = stdio[0] as { type?: unknown; fd?: unknown } | undefined;
  if (stdin?.type === 'inherit' || (stdin?.type === 'fd' && stdin.fd === 0)) stdio[0] = { type: 'ignore' };
  return stdio;
}

/** A copy of a sync call's options with the child detached, marked, and its stdin never the host's. */
function markOptions(options: unknown, marker: string): object {
  const opts = { ...(options as object) } as { detached?: boolean; env?: object; stdio?: unknown };
  opts.detached = true;
  opts.env = { ...(opts.env ?? process.env), [RUN_MARKER]: marker };
  if (opts.stdio === 'inherit') opts.stdio = ['ignore', 'inherit', 'inherit'];
  else if (Array.isArray(opts.stdio) && (opts.stdio[0] === 'inherit' || opts.stdio[0] === 0))
    opts.stdio = ['ignore', ...(opts.stdio as unknown[]).slice(1)];
  return opts;
}

/** What Node's execSync/execFileSync return or throw for a finished child (its checkExecSyncError). */
function settleSync(ret: SyncResult, command: string): unknown {
  if (ret.error) throw Object.assign(ret.error, ret);
  if (ret.status !== 0) {
    const stderr = ret.stderr as { length?: number; toString(): string } | null;
    const detail = stderr && (stderr.length ?? 0) > 0 ? `\n${stderr.toString()}` : '';
    throw Object.assign(new Error(`Command failed: ${command}${detail}`), ret);
  }
  return ret.stdout;
}

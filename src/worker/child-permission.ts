/** Node's permission-model flags: the model itself and every scope it grants (`--allow-fs-write`, `--allow-net`…). */
const PERMISSION_FLAG = /^--(?:experimental-permission|permission|permission-audit|allow-[a-z-]+)$/;
/** The permission flags that take their value as the next argument when written without `=`. */
const TAKES_NEXT = new Set(['--allow-fs-read', '--allow-fs-write']);

/**
 * Keeps Node's permission model with the thread: no child a leaf starts inherits it. Node copies
 * the permission flags of the starting thread's `process.execArgv` into every child — `fork`'s
 * execArgv, and since nodejs/node#58853 (Node 26 here, not 20) the `NODE_OPTIONS` of every
 * `spawn`, `exec` and `*Sync` child — so a `node` run in the process tier would run under the
 * engine's model, and print Node's warnings about its flags (PERM0002, PERM0006, `--allow-net`'s
 * ExperimentalWarning) on its stderr. A child process is not held by the model on any Node
 * (docs/isolation.md): the flags leave this thread's `process.execArgv`, which Node reads anew
 * at every spawn. The model itself still holds this thread: it was set when the thread started.
 */
export function keepPermissionFromChildren(): void {
  const kept: string[] = [];
  const argv = process.execArgv;
  for (let index = 0; index < argv.length; index++) {
    const flag = argv[index]!;
    const name = flag.split('=', 1)[0]!;
    // A V8 flag such as --allow-natives-syntax is no permission flag: only Node's own options are
    // allowed in NODE_OPTIONS, as every permission flag is.
    if (!PERMISSION_FLAG.test(name) || !process.allowedNodeEnvironmentFlags.has(name)) kept.push(flag);
    else if (name === flag && TAKES_NEXT.has(name)) index++;
  }
  if (kept.length !== argv.length) process.execArgv = kept;
}

import type { SpawnArgs } from '../contracts/exec-args.js';

/**
 * The binary a runtime tag runs by default: `python` is served by `python3`, every other tag
 * by the binary of the same name.
 */
export function defaultBinary(runtime: string): string {
  return runtime === 'python' ? 'python3' : runtime;
}

/**
 * Default routing (§executor-subprocess-routing). Without a target: `sh`/`bash` run the body
 * as a shell command line, `node -e`, `python3 -c`, otherwise `<runtime> -c <body>`. With a
 * target, the target is the program (for `sh`/`bash` a command line, for the rest a script
 * path) and a non-empty body becomes its stdin.
 */
export function defaultSpawnArgs(runtime: string, body: string, target: string | null): SpawnArgs {
  const cmd = defaultBinary(runtime);
  const isShell = runtime === 'sh' || runtime === 'bash';
  if (target !== null) {
    const args = isShell ? ['-c', target] : [target];
    return body === '' ? { cmd, args, useShell: false } : { cmd, args, useShell: false, stdin: body };
  }
  const flag = runtime === 'node' ? '-e' : '-c';
  return { cmd, args: [flag, body], useShell: false };
}

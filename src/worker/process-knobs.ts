import { createRequire, syncBuiltinESMExports } from 'node:module';
import { describeArgument, HOST_PID, lockProperty, type Refuse } from './guard-kit.js';
import type { OwnProcesses } from './own-processes.js';

const require = createRequire(import.meta.url);

/** Paths that open one of the host process's standard streams again. */
const STDIO_ALIAS =
  /^\/(?:dev\/(?:stdin|stdout|stderr|tty|fd\/[0-2])|proc\/(?:self|thread-self|\d+(?:\/task\/\d+)?)\/fd\/[0-2])\/?$/;

type Fn = (...args: unknown[]) => unknown;

/**
 * Refuses the process-wide knobs a thread can reach but must not turn, because they belong to
 * the host process and every run in it: the scheduling priority of any process not the run's
 * own (`os.setPriority`, whose default target is the host), V8 flags (`v8.setFlagsFromString`
 * changes every isolate, the host's included), the host's stdin (`process.stdin`, reading fd 0,
 * opening `/dev/stdin` and the other aliases of fds 0–2), closing fds 0–2 (the next file
 * opened would take the host's stdout), and `process.report`, whose report holds the host
 * process's real environment with the secrets the thread's was stripped of. What a thread
 * cannot refuse — `/proc/self/environ`, native addons, a child process — is in docs/faults.md.
 */
export function guardProcessKnobs(own: OwnProcesses, refuse: Refuse): void {
  const knob = (call: string, why: string): never =>
    refuse(`${call}: ${why}; a leaf may not turn a knob of the process it shares with the host (§executor-forbidden)`);
  const os = require('node:os') as Record<string, Fn>;
  const setPriority = os.setPriority!.bind(os);
  lockProperty(os, 'setPriority', function guardedSetPriority(pid: unknown, priority?: unknown) {
    if (priority === undefined) return knob(`os.setPriority(${describeArgument(pid)})`, 'that is the host process');
    const target = +(pid as number);
    if (target !== (target | 0) || target <= 0 || !own.mayTarget(target))
      return knob(
        `os.setPriority(${describeArgument(pid)}, …)`,
        target === 0 || target === HOST_PID ? 'that is the host process' : 'not one of the run’s processes',
      );
    return setPriority(target, priority);
  });
  const v8 = require('node:v8') as Record<string, Fn>;
  lockProperty(v8, 'setFlagsFromString', function setFlagsFromString(flags?: unknown): never {
    return knob(`v8.setFlagsFromString(${describeArgument(flags)})`, 'V8 flags are the whole process’s');
  });
  Object.defineProperty(process, 'stdin', {
    configurable: false,
    enumerable: true,
    get: () => knob('process.stdin', 'stdin is the host operator’s'),
  });
  for (const name of ['getReport', 'writeReport'] as const)
    lockProperty(process.report, name, function report(): never {
      return knob(`process.report.${name}()`, 'a report holds the host process’s environment and secrets');
    });
  guardStdioDescriptors(knob);
  syncBuiltinESMExports();
}

/** fs calls on fds 0–2 (and paths that alias them) that would take the host's streams. */
function guardStdioDescriptors(knob: (call: string, why: string) => never): void {
  const fs = require('node:fs') as Record<string, Fn> & { promises: Record<string, Fn> };
  const wrap = (
    target: Record<string, Fn>,
    name: string,
    refused: (first: unknown) => string | undefined,
    label = `fs.${name}`,
  ) => {
    const original = target[name];
    if (typeof original !== 'function') return;
    const call = original.bind(target);
    lockProperty(target, name, function guarded(this: unknown, ...args: unknown[]) {
      const why = refused(args[0]);
      if (why !== undefined) return knob(`${label}(${describeArgument(args[0])})`, why);
      return call(...args);
    });
  };
  const stdioFd = (fd: unknown) =>
    fd === 0 || fd === 1 || fd === 2 ? 'fds 0–2 are the host’s stdin, stdout and stderr' : undefined;
  const stdinFd = (fd: unknown) => (fd === 0 ? 'fd 0 is the host operator’s stdin' : undefined);
  const alias = (path: unknown) => {
    const text =
      typeof path === 'string'
        ? path
        : path instanceof URL
          ? path.pathname
          : Buffer.isBuffer(path)
            ? path.toString()
            : undefined;
    return text !== undefined && STDIO_ALIAS.test(text)
      ? 'that path opens the host’s stdin, stdout or stderr again'
      : undefined;
  };
  for (const name of ['close', 'closeSync']) wrap(fs, name, stdioFd);
  for (const name of ['read', 'readSync', 'readv', 'readvSync']) wrap(fs, name, stdinFd);
  for (const name of ['readFile', 'readFileSync']) wrap(fs, name, (path) => stdinFd(path) ?? alias(path));
  for (const name of ['open', 'openSync', 'createReadStream', 'createWriteStream', 'openAsBlob']) wrap(fs, name, alias);
  for (const name of ['open', 'readFile']) wrap(fs.promises, name, alias, `fs.promises.${name}`);
}

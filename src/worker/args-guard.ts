import type { ExecArgs } from '../contracts/exec-args.js';
import { PlurnkExecsError } from '../contracts/errors.js';

/**
 * Wraps a run's ExecArgs (and its `env`) so that changing them fails (§executor-forbidden
 * "mutation of ExecArgs"): setting, defining or deleting a property calls `report` and
 * throws a `forbidden` error in the leaf, in strict and sloppy code alike. Reads are
 * untouched, so the sinks, the signal and spawning with `args.env` work as before.
 */
export function guardArgs(args: ExecArgs, report: (message: string) => void): ExecArgs {
  const env = args.env === undefined ? undefined : readOnlyView(args.env, 'args.env', report);
  return readOnlyView(env === undefined ? args : { ...args, env }, 'args', report);
}

function readOnlyView<T extends object>(target: T, name: string, report: (message: string) => void): T {
  const refuse = (what: string, key: string | symbol): never => {
    const message = `run() tried to ${what} ${name}.${String(key)}: ExecArgs are read-only (§executor-forbidden); copy what you need instead`;
    report(message);
    throw new PlurnkExecsError('forbidden', message);
  };
  return new Proxy(target, {
    set: (_target, key) => refuse('set', key),
    defineProperty: (_target, key) => refuse('define', key),
    deleteProperty: (_target, key) => refuse('delete', key),
    setPrototypeOf: () => refuse('replace the prototype of', '__proto__'),
  });
}

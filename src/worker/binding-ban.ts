import { createRequire, syncBuiltinESMExports } from 'node:module';
import { describeArgument, lockProperty, type Refuse } from './guard-kit.js';

const require = createRequire(import.meta.url);

/** What `node:inspector` (and `node:inspector/promises`) may not do from an executor or hook thread. */
const INSPECTOR_CALLS = ['Session', 'open', 'close', 'url', 'waitForDebugger'] as const;

/**
 * Closes the doors from a thread to the host's main thread that Node leaves open: an
 * inspector session (`connectToMainThread()` evaluates code there), `inspector.open()` (a
 * debugger port any local process can attach to), and the internal bindings behind
 * `process.binding` and `process._linkedBinding` (the inspector's among them, and the raw
 * spawn, fs, os and v8 bindings the other guards wrap). Each is replaced by a function — for
 * `Session`, a class — that refuses, in the CommonJS exports and, through
 * `syncBuiltinESMExports`, in every ESM import made afterwards; the process properties are
 * locked. Install after every guard that needs a binding itself.
 */
export function banInternalBindings(refuse: Refuse): void {
  const refusal = (call: string) =>
    `${call}: a leaf may not reach the host's main thread or Node's internal bindings from its thread (§executor-forbidden)`;
  for (const name of ['binding', '_linkedBinding'] as const) {
    lockProperty(process, name, function binding(module?: unknown): never {
      return refuse(refusal(`process.${name}(${describeArgument(module)})`));
    });
  }
  // Both load before either is changed: the promises flavour builds on the callback one's Session.
  const modules = ['node:inspector', 'node:inspector/promises'].map((id) => require(id) as Record<string, unknown>);
  for (const inspector of modules) {
    for (const name of INSPECTOR_CALLS) {
      const what = `inspector.${name}`;
      const replacement =
        name === 'Session'
          ? class ForbiddenSession {
              constructor() {
                refuse(refusal(`new ${what}()`));
              }
            }
          : function forbidden(): never {
              return refuse(refusal(`${what}()`));
            };
      lockProperty(inspector, name, replacement);
    }
  }
  syncBuiltinESMExports();
}

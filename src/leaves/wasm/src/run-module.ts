import type { JsonValue } from '@plurnk/plurnk-execs';
import { invalid, type Refusal } from './refusal.js';

/** What a run reports on `results`, the shape plurnk 1.x reports. */
export interface ModuleOutput {
  /** What the entry returned (null when nothing was called or it returned nothing). */
  returned: JsonValue;
  /** One entry per `env.log` call: the value, or an array when it took several. */
  log: JsonValue[];
  /** The names of the module's exported functions, in export order. */
  exports: string[];
}

/** How many `env.log` calls are kept; a module that logs in a loop must not exhaust the heap. */
export const LOG_LIMIT = 10_000;

/** The output, or a refusal that may carry what was logged before it. */
export type ModuleRun =
  { ok: true; output: ModuleOutput; logDropped: number } | { ok: false; refusal: Refusal; log: JsonValue[] };

const RECOVERY_TRAP = "Correct the module's execution path.";

/**
 * Instantiates `module` with the one import this leaf provides, `env.log`, then calls its
 * entry as plurnk 1.x does: `main`, else `_start`, else its only exported function, else none
 * — a module with several functions and none of those names only instantiates, and
 * `returned` is null. A link failure is `wasm-invalid` (400); a trap — including one in the
 * start function — is `wasm-trap` (500) with the `entryPoint` it happened in.
 */
export async function runModule(module: WebAssembly.Module, limit: (text: string) => string): Promise<ModuleRun> {
  const log: JsonValue[] = [];
  let logDropped = 0;
  const imports = {
    env: {
      log: (...values: unknown[]) => {
        if (log.length >= LOG_LIMIT) logDropped += 1;
        else log.push(values.length === 1 ? toJson(values[0]) : values.map(toJson));
      },
    },
  };
  const functions = WebAssembly.Module.exports(module)
    .filter((entry) => entry.kind === 'function')
    .map((entry) => entry.name);
  const entry =
    ['main', '_start'].find((name) => functions.includes(name)) ?? (functions.length === 1 ? functions[0] : undefined);

  let instance: WebAssembly.Instance;
  try {
    instance = await WebAssembly.instantiate(module, imports);
  } catch (error) {
    // A missing import is a LinkError; a missing import *module* (WASI's, say) a TypeError.
    if (error instanceof WebAssembly.LinkError || error instanceof TypeError) {
      const detail = `The WebAssembly module could not be instantiated: ${limit(messageOf(error))} (the only import provided is env.log)`;
      return { ok: false, refusal: invalid(detail), log };
    }
    // The start function runs inside instantiate; it has no export name.
    return { ok: false, refusal: trap(null, `WebAssembly start function trapped: ${limit(messageOf(error))}`), log };
  }
  if (entry === undefined) return { ok: true, output: { returned: null, log, exports: functions }, logDropped };
  try {
    const returned = (instance.exports[entry] as () => unknown)();
    return { ok: true, output: { returned: toJson(returned), log, exports: functions }, logDropped };
  } catch (error) {
    return {
      ok: false,
      refusal: trap(entry, `WebAssembly entry point '${entry}' trapped: ${limit(messageOf(error))}`),
      log,
    };
  }
}

function trap(entryPoint: string | null, detail: string): Refusal {
  return {
    code: 'wasm-trap',
    status: 500,
    detail,
    extensions: { stage: 'execution', entryPoint, recovery: RECOVERY_TRAP, retryable: false },
  };
}

/**
 * A wasm value as JSON: an i64 (BigInt) as its decimal string, always — plurnk 1.x's BigInt
 * replacer, which keeps every digit and gives an i64 one JSON type; NaN and the infinities as
 * strings (JSON has no such numbers); a multi-value return as an array; a reference as its
 * type name.
 */
function toJson(value: unknown): JsonValue {
  if (value === undefined || value === null) return null;
  if (typeof value === 'bigint') return value.toString();
  if (typeof value === 'number') return Number.isFinite(value) ? value : String(value);
  if (Array.isArray(value)) return value.map(toJson);
  return `[${typeof value}]`;
}

function messageOf(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}

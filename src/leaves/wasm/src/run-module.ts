import type { JsonValue } from '@plurnk/plurnk-execs';
import type { Refusal } from './module-source.js';

/** What a run reports on `results`. */
export interface ModuleOutput {
  /** What the entry returned (null when nothing was called or it returned nothing). */
  returned: JsonValue;
  /** One entry per `env.log` call: the value, or an array when it took several. */
  log: JsonValue[];
  /** Every export of the module, name ⇒ kind (`function`, `memory`, `table`, `global`, `tag`). */
  exports: Record<string, string>;
}

/** How many `env.log` calls are kept; a module that logs in a loop must not exhaust the heap. */
export const LOG_LIMIT = 10_000;

/** The output, or a refusal that may carry what was logged before it. */
export type ModuleRun =
  { ok: true; output: ModuleOutput; logDropped: number } | { ok: false; refusal: Refusal; log: JsonValue[] };

/**
 * Instantiates `module` with the one import this leaf provides, `env.log`, then calls its
 * entry: `main`, else `_start`, else its only exported function; a module that exports no
 * function only instantiates (its start function runs). Several functions and none of those
 * names is `wasm-no-entry` (400); a link failure is `wasm-invalid` (400); a trap — including
 * one in the start function — is `wasm-trap` (500).
 */
export async function runModule(module: WebAssembly.Module): Promise<ModuleRun> {
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
  const exported = WebAssembly.Module.exports(module);
  const exports = Object.fromEntries(exported.map((entry) => [entry.name, entry.kind]));
  const functions = exported.filter((entry) => entry.kind === 'function').map((entry) => entry.name);
  const entry =
    ['main', '_start'].find((name) => functions.includes(name)) ?? (functions.length === 1 ? functions[0] : undefined);
  if (entry === undefined && functions.length > 1) {
    const detail = `the module exports ${functions.length} functions (${functions.join(', ')}) and none is main or _start`;
    return { ok: false, refusal: { code: 'wasm-no-entry', status: 400, detail }, log };
  }

  let instance: WebAssembly.Instance;
  try {
    instance = await WebAssembly.instantiate(module, imports);
  } catch (error) {
    // A missing import is a LinkError; a missing import *module* (WASI's, say) a TypeError.
    if (error instanceof WebAssembly.LinkError || error instanceof TypeError) {
      return {
        ok: false,
        refusal: {
          code: 'wasm-invalid',
          status: 400,
          detail: `${messageOf(error)} (the only import provided is env.log)`,
        },
        log,
      };
    }
    return {
      ok: false,
      refusal: { code: 'wasm-trap', status: 500, detail: `trap in the start function: ${messageOf(error)}` },
      log,
    };
  }
  if (entry === undefined) return { ok: true, output: { returned: null, log, exports }, logDropped };
  try {
    const returned = (instance.exports[entry] as () => unknown)();
    return { ok: true, output: { returned: toJson(returned), log, exports }, logDropped };
  } catch (error) {
    return {
      ok: false,
      refusal: { code: 'wasm-trap', status: 500, detail: `trap in ${entry}: ${messageOf(error)}` },
      log,
    };
  }
}

/**
 * A wasm value as JSON: i64 (BigInt) a number while safe, else its decimal string; NaN and
 * the infinities as strings (JSON has no such numbers); a multi-value return as an array;
 * a reference as its type name.
 */
function toJson(value: unknown): JsonValue {
  if (value === undefined || value === null) return null;
  if (typeof value === 'bigint') {
    return value >= BigInt(Number.MIN_SAFE_INTEGER) && value <= BigInt(Number.MAX_SAFE_INTEGER)
      ? Number(value)
      : value.toString();
  }
  if (typeof value === 'number') return Number.isFinite(value) ? value : String(value);
  if (Array.isArray(value)) return value.map(toJson);
  return `[${typeof value}]`;
}

function messageOf(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}

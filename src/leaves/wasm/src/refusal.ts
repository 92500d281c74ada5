import type { JsonValue } from '@plurnk/plurnk-execs';

// How this leaf refuses a module, whichever step found the fault: reading its source
// (module-source.ts), compiling and linking it (run-module.ts, wasm-executor.ts) or running it.
// The executor turns a refusal into the run's Problem.

/** A failure the executor turns into a Problem. */
export interface Refusal {
  code: string;
  status: number;
  detail: string;
  extensions?: Record<string, JsonValue>;
}

const RECOVERY_INVALID = 'Correct the WebAssembly module.';

/** The `wasm-invalid` refusal for a module V8 will not compile or link. */
export function invalid(detail: string): Refusal {
  return {
    code: 'wasm-invalid',
    status: 400,
    detail,
    extensions: { stage: 'instantiate', recovery: RECOVERY_INVALID, retryable: false },
  };
}

import { Results } from '@plurnk/plurnk-execs';
import type { ExecResult } from '@plurnk/plurnk-execs';
import { PAGE_BYTES } from './memory-bound.js';

/** The variable that caps the linear memory of a wat/wasm module, in MiB. */
export const WASM_MAX_MEMORY_MB = 'PLURNK_EXECS_WASM_MAX_MEMORY_MB';

/** The cap when the variable is unset (the package's `.env.defaults` ships the same value). */
export const DEFAULT_MAX_MEMORY_MB = 64;

/** The cap in pages, or the `invalid-configuration` failure that reports a malformed value. */
export type MemoryCap = { ok: true; pages: number } | { ok: false; result: ExecResult };

/**
 * Reads the memory cap from `env`: a whole number of MiB from 1 to 4096 (wasm32's 4 GiB
 * ceiling); unset or empty means {@link DEFAULT_MAX_MEMORY_MB}. Anything else is a 500
 * `invalid-configuration` naming the variable and what it held.
 */
export function resolveMemoryCap(owner: string, env: NodeJS.ProcessEnv = process.env): MemoryCap {
  const raw = env[WASM_MAX_MEMORY_MB]?.trim();
  if (raw === undefined || raw === '') return { ok: true, pages: toPages(DEFAULT_MAX_MEMORY_MB) };
  const mb = /^\d+$/.test(raw) ? Number(raw) : NaN;
  if (mb >= 1 && mb <= 4096) return { ok: true, pages: toPages(mb) };
  return {
    ok: false,
    result: Results.failure(
      owner,
      'invalid-configuration',
      500,
      `${WASM_MAX_MEMORY_MB} must be a whole number of MiB from 1 to 4096; received ${JSON.stringify(env[WASM_MAX_MEMORY_MB])}`,
      {},
      {
        recovery: `Set ${WASM_MAX_MEMORY_MB} (the package's .env.defaults uses ${DEFAULT_MAX_MEMORY_MB}) or unset it.`,
      },
    ),
  };
}

function toPages(mb: number): number {
  return (mb * 1_048_576) / PAGE_BYTES;
}

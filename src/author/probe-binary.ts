import type { RuntimeAvailability } from '../contracts/effect.js';
import { ErrorDetail, PLURNK_EXECS_ERROR_DETAIL_LIMIT } from '../contracts/error-detail.js';
import { runVersionCommand } from './run-version-command.js';

/**
 * Default probe of a subprocess runtime, in 1.x's order (§executor-probe): `null` names no
 * binary and is available; an already-aborted `signal` is unavailable; the error-detail limit
 * must be configured; then `<binary> --version` runs in its own process group under `signal`
 * (an abort kills the group). Exit 0 is available with the first output line (bounded by the
 * limit) as the detail; another exit is unavailable (`<binary> --version exited <code>`); a
 * binary that cannot be found is unavailable with `<binary> not found on PATH`.
 */
export async function probeBinary(
  binary: string | null,
  signal?: AbortSignal,
  env: NodeJS.ProcessEnv = process.env,
): Promise<RuntimeAvailability> {
  if (binary === null) return { available: true };
  if (signal?.aborted) return { available: false };
  const limit = ErrorDetail.configuredLimit(env);
  if (limit === null) {
    return { available: false, detail: `${PLURNK_EXECS_ERROR_DETAIL_LIMIT} must be set to a non-negative integer.` };
  }
  const outcome = await runVersionCommand(binary, signal ? { signal } : {});
  switch (outcome.kind) {
    case 'cancelled':
      return { available: false };
    case 'failed':
      // 1.x says "not found" for every start failure; a file that is there but not executable is told apart.
      if (outcome.error.code === 'EACCES') return { available: false, detail: `${binary} is not executable (EACCES)` };
      return { available: false, detail: `${binary} not found on PATH` };
    case 'exited':
      if (outcome.code !== 0) {
        return { available: false, detail: `${binary} --version exited ${outcome.code ?? `by ${outcome.killedBy}`}` };
      }
      return outcome.line === ''
        ? { available: true }
        : { available: true, detail: ErrorDetail.preview(outcome.line, limit) };
  }
}

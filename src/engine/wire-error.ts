import { PlurnkExecsError, type PlurnkExecsErrorCode } from '../contracts/errors.js';

/** The codes the engine's thread host may reject with: anything else it sends becomes `fallback`. */
const ENGINE_CODES = new Set<string>([
  'invalid-configuration',
  'boot-failed',
  'host-closed',
  'invalid-request',
  'runtime-unavailable',
  'effect-failed',
]);

/** An error the engine's thread host threw, rebuilt on the service's side with its code when it is one the host throws. */
export function rebuildWireError(
  error: { name: string; message: string; code?: string | undefined },
  fallback: PlurnkExecsErrorCode,
): PlurnkExecsError {
  const code =
    error.code !== undefined && ENGINE_CODES.has(error.code) ? (error.code as PlurnkExecsErrorCode) : fallback;
  return new PlurnkExecsError(code, error.message);
}

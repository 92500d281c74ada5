import { fileURLToPath } from 'node:url';
import { isPlurnkExecsError, type PlurnkExecsErrorCode } from '../../src/index.js';

/** Absolute path of a discovery fixture: `fixture('mixed')`, `fixture('hooks', 'hook-named')`. */
export function fixture(scenario: string, packageName?: string): string {
  const base = fileURLToPath(new URL(`../../fixtures/discovery/${scenario}`, import.meta.url));
  return packageName === undefined ? base : `${base}/node_modules/${packageName}`;
}

/** Awaits `work`, expects it to reject with our named error of `code`, and returns that error. */
export async function rejection(work: Promise<unknown>, code: PlurnkExecsErrorCode): Promise<Error> {
  let error: unknown;
  try {
    await work;
  } catch (caught) {
    error = caught;
  }
  if (!isPlurnkExecsError(error, code))
    throw new Error(`expected a PlurnkExecsError ${code}, got ${String(error)}`, { cause: error });
  return error;
}

import { fileURLToPath } from 'node:url';

/** Absolute path of a discovery fixture: `fixture('mixed')`, `fixture('hooks', 'hook-named')`. */
export function fixture(scenario: string, packageName?: string): string {
  const base = fileURLToPath(new URL(`../../fixtures/discovery/${scenario}`, import.meta.url));
  return packageName === undefined ? base : `${base}/node_modules/${packageName}`;
}

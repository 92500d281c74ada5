import { accessSync, constants, statSync } from 'node:fs';
import { delimiter, isAbsolute, join } from 'node:path';

/** A binary found on PATH: the name that was looked for and the file that answers it. */
export interface FoundBinary {
  name: string;
  path: string;
}

/**
 * Finds the first of `names` on `pathVariable` the way execvp would, but without a shell:
 * each PATH entry is joined with the bare name and checked for an executable regular file.
 * Names are fixed by the leaf and must be bare (no `/`); relative and empty PATH entries are
 * skipped so that the answer never depends on the working directory.
 */
export function findOnPath(names: readonly string[], pathVariable: string | undefined): FoundBinary | undefined {
  const dirs = (pathVariable ?? '').split(delimiter).filter((dir) => dir !== '' && isAbsolute(dir));
  for (const name of names) {
    if (name === '' || name.includes('/'))
      throw new TypeError(`findOnPath: ${JSON.stringify(name)} is not a bare binary name`);
    for (const dir of dirs) {
      const path = join(dir, name);
      if (isExecutableFile(path)) return { name, path };
    }
  }
  return undefined;
}

function isExecutableFile(path: string): boolean {
  try {
    if (!statSync(path).isFile()) return false;
    accessSync(path, constants.X_OK);
    return true;
  } catch {
    return false;
  }
}

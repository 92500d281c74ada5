import { readFile, realpath } from 'node:fs/promises';
import { join } from 'node:path';
import * as v from 'valibot';
import { PlurnkExecsError } from '../contracts/errors.js';
import { describeValue } from './describe-value.js';

// Only the exact string "exec" claims the family; everything else about the block is judged later.
const ClaimSchema = v.looseObject({ plurnk: v.looseObject({ kind: v.literal('exec') }) });

/** An installed package whose package.json claims the exec family, not yet validated further. */
export interface ClaimedPackage {
  /** The package.json `name`. */
  readonly packageName: string;
  /** Real path of the package directory. */
  readonly packageDir: string;
  /** The whole parsed package.json (its `exports` and `main` locate code). */
  readonly packageJson: Readonly<Record<string, unknown>>;
  /** The raw `plurnk` block. */
  readonly plurnk: Readonly<Record<string, unknown>>;
}

/**
 * Reads `<dir>/package.json` and returns it when it claims the exec family with exactly
 * `plurnk.kind === "exec"` (an array or any other kind claims nothing). A missing,
 * unreadable or broken package.json is silently not a leaf (undefined). A claim without a
 * string `name` fails hard: nothing could own its tags.
 */
export async function readClaimedPackage(dir: string): Promise<ClaimedPackage | undefined> {
  let packageJson: unknown;
  try {
    packageJson = JSON.parse(await readFile(join(dir, 'package.json'), 'utf8'));
  } catch {
    return undefined;
  }
  if (!v.is(ClaimSchema, packageJson)) return undefined;
  const name = packageJson.name;
  if (typeof name !== 'string' || name === '') {
    throw new PlurnkExecsError(
      'invalid-declaration',
      `Invalid exec package at ${dir}: package.json declares "plurnk": { "kind": "exec" } but its name is ${describeValue(name)}. Fix: give the package a "name".`,
    );
  }
  return Object.freeze({ packageName: name, packageDir: await realpath(dir), packageJson, plurnk: packageJson.plurnk });
}

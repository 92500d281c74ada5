import * as v from 'valibot';
import { PlurnkExecsError } from '../contracts/errors.js';
import { normalizeAttribution } from './attribution.js';
import { formatIssueLines, reportIssues } from './issue-report.js';
import type { ClaimedPackage } from './read-manifest.js';

/**
 * The `plurnk` block of an exec package: `kind`, then static `runtimes[]` or a
 * `runtimesModule` export subpath (static wins when both are present), and an optional
 * `attribution`. Keys it does not read are tolerated, as 1.x did (later 1.x blocks carry
 * more). Each runtime is validated on its own afterwards, so its errors name its tag.
 */
export const ExecManifestSchema: v.GenericSchema<ExecManifestBlock> = v.pipe(
  v.looseObject({
    kind: v.literal('exec'),
    runtimes: v.optional(v.array(v.unknown())),
    runtimesModule: v.optional(
      v.pipe(v.string(), v.regex(/^\.\/\S+$/, 'must be an export subpath such as "./runtimes"')),
    ),
    attribution: v.optional(v.unknown()),
  }),
  v.forward(
    v.check(
      (m) => m.runtimes !== undefined || m.runtimesModule !== undefined,
      'is required unless runtimesModule names a hook',
    ),
    ['runtimes'],
  ),
);

/** A `plurnk` block as {@link ExecManifestSchema} admits it, before normalization. */
export interface ExecManifestBlock {
  kind: 'exec';
  runtimes?: unknown[];
  runtimesModule?: string;
  attribution?: unknown;
  /** Keys discovery does not read, tolerated as 1.x did. */
  [key: string]: unknown;
}

/** What discovery needs from a valid `plurnk` block. */
export interface ExecManifest {
  /** The static declarations (unvalidated), or undefined when the package uses a hook. */
  readonly runtimes: readonly unknown[] | undefined;
  /** The hook's export subpath, when there are no static declarations. */
  readonly runtimesModule: string | undefined;
  /** The normalized package attribution (null: none). */
  readonly attribution: readonly string[] | null;
}

/**
 * Validates a claimed package's `plurnk` block and normalizes its attribution. Fails hard
 * with `invalid-declaration` naming the package and every offending field.
 */
export function validateExecManifest(pkg: ClaimedPackage): ExecManifest {
  const result = v.safeParse(ExecManifestSchema, pkg.plurnk, { abortEarly: false });
  if (!result.success) {
    const lines = reportIssues(ExecManifestSchema, result.issues, {
      name: 'plurnk',
      hint: 'declare "plurnk": { "kind": "exec", "runtimes": [ … ] }',
    });
    for (const line of lines) if (line.field !== 'plurnk') line.field = `plurnk.${line.field}`;
    throw new PlurnkExecsError(
      'invalid-declaration',
      `Invalid exec manifest in package "${pkg.packageName}":\n${formatIssueLines(lines)}`,
      {
        cause: new v.ValiError(result.issues),
      },
    );
  }
  const { runtimes, runtimesModule, attribution } = result.output;
  return Object.freeze({
    runtimes,
    runtimesModule: runtimes === undefined ? runtimesModule : undefined,
    attribution: normalizeAttribution(attribution, pkg.packageName),
  });
}

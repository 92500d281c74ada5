import * as v from 'valibot';
import { PlurnkExecsError } from '../contracts/errors.js';
import type { RuntimeDecl } from '../contracts/invocation.js';
import { runtimeDeclEntries } from '../contracts/invocation-shape.js';
import { InvocationRulesSchema, normalizeInvocation } from './invocation-rules.js';
import { formatIssueLines, reportIssues } from './issue-report.js';
import { RuntimeTag } from './runtime-tag.js';

const TagSchema = v.pipe(
  v.string(),
  v.regex(RuntimeTag.PATTERN, `must match ${RuntimeTag.SYNTAX} (lowercase URI-scheme syntax)`),
  v.check(
    (name) => !RuntimeTag.isReserved(name),
    (issue) => `is reserved: ${RuntimeTag.reservedBy(issue.input as string) ?? 'configuration'} owns that name`,
  ),
);

/**
 * A runtime declaration as discovery admits it (§executor-runtime-declaration): closed to
 * `name, glyph, summary, invocation, details` and the later 1.x `resourcesPath`; a valid, unreserved tag; a one-line glyph; and
 * an invocation that satisfies every rule of §executor-invocation.
 */
export const DeclarationSchema: v.GenericSchema<RuntimeDecl> = v.strictObject({
  ...runtimeDeclEntries,
  name: TagSchema,
  glyph: v.optional(v.pipe(v.string(), v.regex(/^[^\r\n]*$/, 'must be one line'))),
  invocation: InvocationRulesSchema,
});

const DECLARATION_HINT =
  'declare an object { "name", "summary", "invocation", "glyph"?, "details"?, "resourcesPath"? }';

/** Where a declaration came from, for error messages. */
export interface DeclarationOrigin {
  /** The package (or module boundary) that owns the declaration. */
  packageName: string;
  /** Where in that package it was found, e.g. `plurnk.runtimes[2]`. */
  source?: string;
}

/**
 * The one validator for static, dynamic-hook and module-owned runtime declarations. Returns
 * the declaration normalized (explicit booleans, no undefined fields) and frozen. Any
 * violation throws `PlurnkExecsError('invalid-declaration')` whose message names the
 * package, the tag, every offending field with what was received, and how to fix it.
 */
export function validateRuntimeDecl(decl: unknown, origin: DeclarationOrigin): RuntimeDecl {
  const result = v.safeParse(DeclarationSchema, decl, { abortEarly: false });
  if (!result.success) {
    const lines = reportIssues(DeclarationSchema, result.issues, { name: 'the declaration', hint: DECLARATION_HINT });
    const count = lines.length === 1 ? '' : ` (${lines.length} problems)`;
    throw new PlurnkExecsError(
      'invalid-declaration',
      `Invalid runtime declaration in package "${origin.packageName}", ${labelRuntime(decl, origin.source)}${count}:\n${formatIssueLines(lines)}`,
      { cause: new v.ValiError(result.issues) },
    );
  }
  return normalizeDeclaration(result.output);
}

/** A valid declaration as discovery carries it: no undefined fields, a normalized invocation, frozen. */
export function normalizeDeclaration(decl: RuntimeDecl): RuntimeDecl {
  const { name, glyph, summary, invocation, details, resourcesPath } = decl;
  return Object.freeze({
    name,
    ...(glyph === undefined ? {} : { glyph }),
    summary,
    invocation: normalizeInvocation(invocation),
    ...(details === undefined ? {} : { details }),
    ...(resourcesPath === undefined ? {} : { resourcesPath }),
  });
}

/** `runtime "cobol" (plurnk.runtimes[0])`, or the source alone when the name is unusable. */
function labelRuntime(decl: unknown, source: string | undefined): string {
  const name = typeof decl === 'object' && decl !== null ? (decl as { name?: unknown }).name : undefined;
  const where = source === undefined ? '' : ` (${source})`;
  return typeof name === 'string' && name !== '' ? `runtime "${name}"${where}` : `unnamed runtime${where}`;
}

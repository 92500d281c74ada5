import * as v from 'valibot';

/**
 * A runtime as manifests published up to 1.5 declared it: a name, an optional glyph, and
 * optionally an `example` string in the EXEC syntax of its day and inline `documentation`
 * (0.4.x) — no `summary`, no `invocation`. A declaration with any other field, or with either
 * of those two, is read strictly as the current shape.
 */
const LegacyDeclSchema = v.strictObject({
  name: v.string(),
  glyph: v.optional(v.string()),
  example: v.optional(v.string()),
  documentation: v.optional(v.string()),
  details: v.optional(v.string()),
});

/**
 * A current declaration without its `summary`: an early 1.x consumer admitted `{ name,
 * invocation }`; later 1.x requires the summary. Only these fields, and `invocation` present.
 */
const SummarylessDeclSchema = v.strictObject({
  name: v.string(),
  glyph: v.optional(v.string()),
  invocation: v.nonOptional(v.unknown()),
  details: v.optional(v.string()),
});

// `## EXEC0 [git] (./repo)` (1.2–1.5): the heading, then the body on the lines below it.
const HEADING = /^#{2,3} EXEC\S*\s*(?:\[([^\]]*)\])?\s*(?:\(([^)]*)\))?\s*$/;
// `<<EXEC[sh](build.sh)<-1,300>:body:EXEC` (up to 1.1): one statement per line.
const INLINE = /<<EXEC(?:\[([^\]]*)\])?(?:\(([^)]*)\))?(?:<[^>]*>)?:(.*?):EXEC/g;

interface Statement {
  runtime: string | undefined;
  target: string | undefined;
  body: string;
}

/** True when `decl` is a legacy (≤1.5) declaration that {@link readLegacyDeclaration} can read. */
export function isLegacyDeclaration(decl: unknown): boolean {
  return v.is(LegacyDeclSchema, decl);
}

/** True when `decl` is a current declaration lacking only its summary (early 1.x). */
export function isSummarylessDeclaration(decl: unknown): boolean {
  return v.is(SummarylessDeclSchema, decl);
}

/**
 * Completes a summary-less declaration with the neutral summary `<tag> executor from
 * <package>` (the legacy reading's); everything else is then validated as written.
 */
export function readSummarylessDeclaration(decl: unknown, packageName: string): Record<string, unknown> {
  const read = v.parse(SummarylessDeclSchema, decl);
  return { ...read, summary: `${read.name} executor from ${packageName}` };
}

/**
 * Derives the current declaration from a legacy one (docs/compat.md, "Manifests published up
 * to 1.5"). Conservative on purpose, since the author said nothing about either:
 * - `summary`: `<tag> executor from <package>`, a neutral line that claims nothing;
 * - `invocation`: an optional body and an optional `literal` target (passed as written, as
 *   the services of that era passed every target), not exclusive — so every EXEC such a leaf
 *   accepted before is admitted, and none is turned into a path or a working directory;
 * - the witness: the first statement of `example` that names this tag (or no tag, for `sh`)
 *   and has a one-line body, else the signature `<<tag> input>`;
 * - `details`: `details`, else the 0.4.x `documentation` (a `docs/<tag>.md` still wins).
 */
export function readLegacyDeclaration(decl: unknown, packageName: string): Record<string, unknown> {
  const legacy = v.parse(LegacyDeclSchema, decl);
  const name = legacy.name;
  const witness = findExample(legacy.example ?? '', name);
  const details = legacy.details ?? legacy.documentation;
  return {
    name,
    ...(legacy.glyph === undefined ? {} : { glyph: legacy.glyph }),
    summary: `${name} executor from ${packageName}`,
    invocation: {
      body: { role: `${name} input`, required: false },
      target: { role: 'target, passed to the executor as written', required: false, kind: 'literal' },
      ...(witness === undefined ? { signature: `<${name} input>` } : { example: witness }),
    },
    ...(details === undefined ? {} : { details }),
  };
}

/** The first usable statement of a legacy `example` for `tag`, as an invocation example. */
function findExample(text: string, tag: string): { body?: string; target?: string } | undefined {
  for (const statement of parseStatements(text)) {
    const runtime = statement.runtime?.trim() || undefined;
    if (runtime !== tag && !(runtime === undefined && tag === 'sh')) continue;
    const body = statement.body.trim();
    const target = statement.target?.trim() ?? '';
    if (body.includes('\n') || (body === '' && target === '')) continue;
    return { ...(body === '' ? {} : { body }), ...(target === '' ? {} : { target }) };
  }
  return undefined;
}

function parseStatements(text: string): Statement[] {
  const lines = text.replace(/\r\n?/g, '\n').split('\n');
  if (lines.some((line) => HEADING.test(line))) return parseHeadings(lines);
  return [...text.matchAll(INLINE)].map((match) => ({ runtime: match[1], target: match[2], body: match[3] ?? '' }));
}

function parseHeadings(lines: readonly string[]): Statement[] {
  const statements: Statement[] = [];
  let current: (Statement & { lines: string[] }) | undefined;
  for (const line of lines) {
    const heading = HEADING.exec(line);
    if (heading !== null) {
      current = { runtime: heading[1], target: heading[2], body: '', lines: [] };
      statements.push(current);
    } else current?.lines.push(line);
  }
  for (const statement of statements as (Statement & { lines: string[] })[])
    statement.body = statement.lines.join('\n').replace(/\n+$/, '');
  return statements;
}

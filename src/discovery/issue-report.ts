import * as v from 'valibot';
import { describeValue } from './describe-value.js';
import { RuntimeTag } from './runtime-tag.js';

// How to fix a field, by the end of its dot path (the longest matching suffix wins), so the
// same hints serve a runtime declaration and a tool registry entry.
const HINTS: Record<string, string> = {
  name: `use a lowercase runtime tag matching ${RuntimeTag.SYNTAX}, other than "only"`,
  glyph: 'give a one-line string, or leave glyph out',
  summary: 'write one non-empty line that says what the capability does',
  details: 'give Markdown text, or ship docs/<tag>.md instead',
  resourcesPath: 'give an absolute pathname such as "/tools", or leave resourcesPath out',
  invocation: 'declare { "body": { "role": … }, and an "example", a "signature" or an "inputSchema" }',
  'invocation.body': 'declare { "role": "one line", "required": true|false }',
  'body.role': 'describe the body in one non-empty line',
  'body.required': 'use true or false',
  'invocation.target':
    'declare { "role", "kind": "literal"|"path"|"resource", "required"?, "directory"? }, or leave target out',
  'target.role': 'describe the target in one non-empty line',
  'target.required': 'use true or false',
  'target.kind': 'use "literal", "path" or "resource"',
  'target.directory': 'use "cwd" with a path or resource target, or leave directory out',
  'invocation.exclusive': 'declare a target, or leave exclusive out',
  'invocation.example': 'give one example { "body"?, "target"? } that a real EXEC of this runtime would accept',
  'example.body': 'give a one-line body',
  'example.target': 'give a one-line target',
  'invocation.signature': 'give one non-empty line, or drop it and keep the example',
  'invocation.inputSchema':
    'give the JSON Schema of the body as a plain JSON object, or drop it and keep one other witness',
  runtimes: 'declare "runtimes": [ { "name", "summary", "invocation" } ], or name a hook with "runtimesModule"',
  runtimesModule: 'name an export subpath such as "./runtimes" that your package.json "exports" maps',
  tools: 'return { "tools": [ … ] }',
  target: 'give each tool one exact, unique, one-line target',
};

/** One problem found in supplied data: the field, what is wrong, what arrived, and the fix. */
export interface IssueLine {
  field: string;
  problem: string;
  received: string;
  fix: string;
}

/** How to name and fix the value a schema validated as a whole. */
export interface ReportRoot {
  /** What the whole value is called in messages, e.g. `the declaration`. */
  name: string;
  /** How to fix the value as a whole (when it is not even the right type). */
  hint: string;
}

/**
 * Turns valibot issues into readable lines. `schema` is the schema that produced them; it is
 * walked to list the allowed fields when an unknown one turns up.
 */
export function reportIssues(schema: unknown, issues: readonly v.BaseIssue<unknown>[], root: ReportRoot): IssueLine[] {
  return issues.map((issue) => {
    const keys = (issue.path ?? []).map((item) => String(item.key));
    if (keys.length === 0) {
      return {
        field: root.name,
        problem: issue.kind === 'schema' ? `must be ${describeExpected(issue.expected)}` : issue.message,
        received: describeValue(issue.input),
        fix: root.hint,
      };
    }
    const field = keys.reduce(
      (path, key) => (/^\d+$/.test(key) ? `${path}[${key}]` : path === '' ? key : `${path}.${key}`),
      '',
    );
    const received = describeValue(issue.path === undefined ? issue.input : issue.path.at(-1)?.value);
    if (issue.type === 'strict_object' && issue.expected === 'never') {
      const allowed = listAllowedKeys(schema, keys.slice(0, -1));
      return {
        field,
        problem: 'is not a known field',
        received,
        fix: `remove it or correct its spelling${allowed ? ` (allowed here: ${allowed.join(', ')})` : ''}`,
      };
    }
    const fix = findHint(keys);
    if (issue.kind === 'schema' && issue.received === 'undefined' && keys.length > 0)
      return { field, problem: 'is required', received, fix };
    if (issue.kind === 'schema')
      return { field, problem: `must be ${describeExpected(issue.expected)}`, received, fix };
    return { field, problem: issue.message, received, fix };
  });
}

/** `- field problem; received X. Fix: …` lines, one per issue. */
export function formatIssueLines(lines: readonly IssueLine[]): string {
  return lines.map((l) => `- ${l.field} ${l.problem}; received ${l.received}. Fix: ${l.fix}.`).join('\n');
}

function findHint(keys: readonly string[]): string {
  const segments = keys.filter((key) => !/^\d+$/.test(key));
  for (let start = 0; start < segments.length; start += 1) {
    const hint = HINTS[segments.slice(start).join('.')];
    if (hint !== undefined) return hint;
  }
  return 'see docs/leaf-authoring.md';
}

function describeExpected(expected: string | null): string {
  if (expected === 'Object') return 'an object';
  if (expected === 'Array') return 'an array';
  if (expected === 'boolean') return 'true or false';
  if (expected === 'string' || expected === 'number') return `a ${expected}`;
  if (expected?.includes(' | '))
    return `one of ${expected
      .replace(/^\(|\)$/g, '')
      .split(' | ')
      .join(', ')}`;
  return expected ?? 'something else';
}

type Walkable = { type?: string; entries?: Record<string, Walkable>; wrapped?: Walkable; item?: Walkable };

/** The keys an object schema admits at `keys` below `schema`, or undefined when it is not found. */
function listAllowedKeys(schema: unknown, keys: readonly string[]): string[] | undefined {
  let node = unwrap(schema as Walkable);
  for (const key of keys) {
    if (node === undefined) return undefined;
    node = unwrap(node.type === 'array' ? node.item : node.entries?.[key]);
  }
  return node?.entries === undefined ? undefined : Object.keys(node.entries);
}

function unwrap(node: Walkable | undefined): Walkable | undefined {
  let current = node;
  while (current?.wrapped !== undefined) current = current.wrapped;
  return current;
}

import type * as v from 'valibot';
import type { RuntimeInvocation } from '../contracts/invocation.js';

// How plurnk 1.x words a declaration fault (its RuntimeInvocation, RuntimeDeclaration and
// tool-registry validators), for the 1.x statics: a service matches on these texts. The rules
// are discovery's own schemas; this file only says what each issue they raise is called in
// 1.x, from the issue's structure (its path, its kind, the value), never from our wording.

/** What a set of issues was validated as: an invocation, a declaration, or a tool registry. */
export type WordingRoot = 'invocation' | 'declaration' | 'tool registry';

/** One issue in 1.x words; `namesRuntime` when 1.x's sentence names the runtime after the owner. */
export interface OneXDetail {
  readonly detail: string;
  readonly namesRuntime: boolean;
  /** An unknown field: 1.x checks those first, so they lead the message. */
  readonly unknownField: boolean;
}

const EXACTLY_ONE = 'invocation must provide exactly one example or signature or inputSchema';

type Key = string | number;

/** The 1.x detail of `issue`, raised by the schema of `root`. */
export function wordIssue(issue: v.BaseIssue<unknown>, root: WordingRoot): OneXDetail {
  const keys: Key[] = (issue.path ?? []).map((item) => item.key as Key);
  const unknownField = issue.type === 'strict_object' && issue.expected === 'never';
  if (root === 'invocation')
    return { detail: wordInvocation(issue, keys, unknownField), namesRuntime: true, unknownField };
  if (root === 'declaration') {
    if (keys[0] === 'invocation')
      return { detail: wordInvocation(issue, keys.slice(1), unknownField), namesRuntime: true, unknownField };
    return { detail: wordField('declaration', keys, issue, unknownField), namesRuntime: false, unknownField };
  }
  return { detail: wordToolRegistry(issue, keys, unknownField), namesRuntime: true, unknownField };
}

function wordInvocation(issue: v.BaseIssue<unknown>, keys: Key[], unknownField: boolean): string {
  const field = join('invocation', keys);
  const last = keys.at(-1);
  const check = issue.type === 'check';
  if (unknownField || keys.length === 0) return wordField('invocation', keys, issue, unknownField);
  if (last === 'exclusive') return check ? 'exclusive invocation must declare a target' : `${field} must be boolean`;
  if (last === 'directory')
    return check ? `${field} is only valid for path or resource targets` : `${field} must be cwd`;
  if (last === 'kind') return `${field} must be literal, path, resource, or script`;
  if (last === 'signature') return check ? EXACTLY_ONE : `${field} must be one non-empty canonical line`;
  if (last === 'inputSchema') return check ? EXACTLY_ONE : `${field} must be an object`;
  if (keys.length === 1 && last === 'example')
    return check ? wordExampleMiss(issue.input) : `${field} must be an object`;
  if (keys[0] === 'example') return `${field} must be one non-empty canonical line`;
  return wordField('invocation', keys, issue, unknownField);
}

/**
 * The bucket rule an invocation's own example breaks (or the missing witness), in the order
 * 1.x tests them, so an example that breaks two is named as 1.x names it. Presence is the
 * buckets' (contracts/invocation-buckets.ts): a blank body and an empty target are absent.
 */
function wordExampleMiss(input: unknown): string {
  const invocation = input as RuntimeInvocation;
  const example = invocation.example;
  if (example === undefined) return EXACTLY_ONE;
  const hasBody = (example.body ?? '').trim() !== '';
  const hasTarget = (example.target ?? '') !== '';
  if (!hasBody && !hasTarget) return 'invocation.example must provide a body or target';
  if (invocation.body.required === true && !hasBody) return 'invocation.example must provide the required body';
  if (invocation.target === undefined && hasTarget) return 'invocation.example cannot provide a refused target';
  if (invocation.target?.required === true && !hasTarget) return 'invocation.example must provide the required target';
  return 'invocation.example must provide exactly one exclusive input';
}

function wordToolRegistry(issue: v.BaseIssue<unknown>, keys: Key[], unknownField: boolean): string {
  const [first, index, third, ...rest] = keys;
  if (first !== 'tools' || typeof index !== 'number') return wordField('tool registry', keys, issue, unknownField);
  const tool = `tool registry.tools[${index}]`;
  const value = issue.path?.[1]?.value as { target?: unknown; invocation?: RuntimeInvocation } | undefined;
  if (third === 'invocation' && issue.type === 'check') {
    // The tool rules of the registry schema; the invocation's own rules are worded as 1.x's assert words them.
    if (rest[0] === 'target' && rest.length <= 2 && rest[1] !== 'directory')
      return `${tool}.invocation must declare a required literal target`;
    if (rest[0] === 'example' && rest[1] === 'target')
      return `${tool} target '${String(value?.target)}' conflicts with invocation.example.target '${String(value?.invocation?.example?.target)}'`;
  }
  if (third === 'invocation') return wordInvocation(issue, rest, unknownField);
  if (third === 'target' && issue.type === 'raw_check')
    return `tool registry contains duplicate exact target '${String(value?.target)}'`;
  if (third === 'target') return `${tool}.target must be one non-empty canonical line`;
  return wordField('tool registry', keys, issue, unknownField);
}

/** The words every validator shares: unknown fields, objects, lines, booleans, strings. */
function wordField(root: string, keys: Key[], issue: v.BaseIssue<unknown>, unknownField: boolean): string {
  const top = root === 'declaration' ? '' : root;
  if (unknownField) return `${join(top, keys.slice(0, -1)) || root} has unknown field '${String(keys.at(-1))}'`;
  const field = join(top, keys) || root;
  const last = keys.at(-1);
  if (
    keys.length === 0 ||
    ((last === 'body' || last === 'target') && issue.kind === 'schema') ||
    typeof last === 'number'
  )
    return `${field} must be an object`;
  if (last === 'role' || last === 'summary') return `${field} must be one non-empty line`;
  if (last === 'required') return `${field} must be boolean`;
  if (last === 'tools') return `${field} must be an array`;
  if (last === 'resourcesPath') return `${field} must be a non-empty absolute pathname like /tools`;
  if (last === 'glyph') return `${field} must be a string of one line`;
  if (last === 'details') return `${field} must be a string`;
  return `${field} is invalid`;
}

/** `invocation.body.role`, `tool registry.tools[0].summary`: 1.x's field names. */
function join(root: string, keys: readonly Key[]): string {
  return keys.reduce<string>(
    (path, key) => (typeof key === 'number' ? `${path}[${key}]` : path === '' ? key : `${path}.${key}`),
    root,
  );
}

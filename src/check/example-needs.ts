/**
 * What an example that ended in a Problem of the leaf's own seems to need that the directory it
 * ran in lacks — a hint for the person reading the warning, never a verdict. It reads the
 * example as declared (its tag, body and target) and the run's cwd, not the run's messages: a
 * git command outside a git work tree needs a repository; a file the example names that is not
 * there needs that file; anything else needs whatever the example expects of its directory.
 */
import { existsSync } from 'node:fs';
import { dirname, isAbsolute, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { RegistryEntry } from '../contracts/registry.js';
import type { Example } from './measure-run.js';

/** A word that names a file: a path with a slash, or a name with an extension (`notes.txt`, `module.wasm`). */
const FILE_WORD = /^(?:[\w.@~-]+\/)*[\w@~-][\w.@~-]*\.[A-Za-z]\w{0,9}$|^\.{0,2}\/[\w./@~-]+$/;

/** What the example seems to need, as a phrase (`a git repository and a file notes.txt`). */
export function exampleNeeds(entry: RegistryEntry, example: Example, cwd: string): string {
  const words = wordsOf(`${example.body} ${example.target ?? ''}`);
  const needs: string[] = [];
  if ((entry.runtime === 'git' || words.includes('git')) && !insideGitWorkTree(cwd)) needs.push('a git repository');
  for (const word of new Set(words.filter((w) => FILE_WORD.test(w)))) {
    if (!existsSync(isAbsolute(word) ? word : resolve(cwd, word))) needs.push(`a file ${word}`);
  }
  return needs.length > 0 ? needs.join(' and ') : 'a working directory with what it expects';
}

/**
 * Why the example's target is missing where it ran — a `path` or `resource` target that does
 * not exist in `cwd` — or undefined when it is there (or is a literal, which has no place).
 */
export function missingTarget(entry: RegistryEntry, target: string | null, cwd: string): string | undefined {
  const kind = entry.invocation.target?.kind;
  if (target === null || target === '' || (kind !== 'path' && kind !== 'resource')) return undefined;
  let path: string;
  try {
    path = target.startsWith('file:') ? fileURLToPath(target) : resolve(cwd, target);
  } catch {
    return undefined;
  }
  if (existsSync(path)) return undefined;
  return `no such ${kind} in ${cwd}; give check a cwd (--cwd <dir>) where it exists`;
}

/** The words of a command line, shell punctuation and quotes set aside; a word called like a function (`console.log(`) is none. */
function wordsOf(text: string): string[] {
  return [...text.matchAll(/([^\s;&|()<>`$]+)(\(?)/g)]
    .filter((match) => match[2] === '')
    .map((match) => match[1]!.replace(/^['"]+|['"]+$/g, ''))
    .filter((word) => word !== '');
}

/** True when `dir` or one of its ancestors holds `.git` (a work tree, or a worktree's `.git` file). */
function insideGitWorkTree(dir: string): boolean {
  for (let at = resolve(dir); ; at = dirname(at)) {
    if (existsSync(join(at, '.git'))) return true;
    if (dirname(at) === at) return false;
  }
}

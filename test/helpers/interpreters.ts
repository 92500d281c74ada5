import { accessSync, constants, statSync } from 'node:fs';
import { delimiter, isAbsolute, join } from 'node:path';

/**
 * The binaries each tag needs on PATH, tried in order, and how its probe says to install them:
 * the tests' own copy of docs/leaves.md, so a test can expect the branch this machine takes.
 * Tags absent here (jq, sqlite, wat, wasm) need no binary.
 */
export const INTERPRETERS: Readonly<Record<string, { binaries: readonly string[]; install: string }>> = {
  sh: { binaries: ['sh'], install: 'apt-get install dash' },
  bash: { binaries: ['bash'], install: 'apt-get install bash' },
  node: { binaries: ['node'], install: 'install Node.js 20 or later' },
  python: { binaries: ['python3'], install: 'apt-get install python3' },
  python3: { binaries: ['python3'], install: 'apt-get install python3' },
  perl: { binaries: ['perl'], install: 'apt-get install perl' },
  ruby: { binaries: ['ruby'], install: 'apt-get install ruby' },
  php: { binaries: ['php'], install: 'apt-get install php-cli' },
  lua: { binaries: ['lua5.4', 'lua'], install: 'apt-get install lua5.4' },
  deno: { binaries: ['deno'], install: 'npm install -g deno' },
  bun: { binaries: ['bun'], install: 'npm install -g bun' },
  tcl: { binaries: ['tclsh'], install: 'apt-get install tcl' },
  bc: { binaries: ['bc'], install: 'apt-get install bc' },
  awk: { binaries: ['awk'], install: 'apt-get install mawk' },
  git: { binaries: ['git'], install: 'apt-get install git' },
};

/**
 * The tags the tests use only when their interpreter is present: the README does not ask a new
 * machine to install them, so each of their tests takes the "unavailable" branch without them
 * (test/helpers/interpreter-branch.ts). .ci/run installs all but deno and bun, so CI runs them
 * live. The other tags' binaries (sh, bash, node, awk, git) the tests need, as the README says.
 */
export const OPTIONAL_TAGS: readonly string[] = [
  'python',
  'python3',
  'perl',
  'ruby',
  'php',
  'lua',
  'tcl',
  'bc',
  'deno',
  'bun',
];

/** True when `tag` needs no binary, or one of its binaries is an executable file on PATH. */
export function isInstalled(tag: string, path = process.env.PATH): boolean {
  const needs = INTERPRETERS[tag];
  if (needs === undefined) return true;
  const dirs = (path ?? '').split(delimiter).filter((dir) => dir !== '' && isAbsolute(dir));
  return needs.binaries.some((name) => dirs.some((dir) => isExecutable(join(dir, name))));
}

/** The probe detail of `tag` when none of its binaries is on PATH. */
export function missingDetail(tag: string): string {
  const needs = INTERPRETERS[tag]!;
  const hint = tag === 'git' ? `git not found on PATH (install: ${needs.install})` : undefined;
  return hint ?? `${needs.binaries.join(' or ')} not on PATH (install: ${needs.install})`;
}

/** Tags whose interpreter is not on PATH here: their tests take the "unavailable" branch. */
export function missingInterpreters(): string[] {
  return Object.keys(INTERPRETERS).filter((tag) => !isInstalled(tag));
}

/** True when `path` is a file this process may execute (a symlink counts as what it points to). */
export function isExecutable(path: string): boolean {
  try {
    accessSync(path, constants.X_OK);
    return statSync(path).isFile();
  } catch {
    return false;
  }
}

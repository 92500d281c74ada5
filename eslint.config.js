// Lint: typescript-eslint's recommended rules, plus the walls between the source folders.
// Each folder is a subsystem and imports flow one way (docs/architecture.md):
//   cli → check → host (the front door) → engine → thread-host → model → discovery → runtime → contracts;
//   worker → author → runtime → contracts. The front door alone knows both tiers, and only their
//   entries (engine/index.ts, thread-host/index.ts); the engine knows only the thread tier's entry.
// A wall is a rule here, so crossing one fails `npm test`, not only a review.
import js from '@eslint/js';
import tseslint from 'typescript-eslint';

/** `no-restricted-imports` that forbids importing from any of `folders` (relative paths into src/<folder>/). */
function wall(files, folders, extra = []) {
  return {
    files,
    rules: {
      'no-restricted-imports': [
        'error',
        {
          patterns: [
            ...folders.map((folder) => ({
              group: [`**/${folder}/**`, `../${folder}/*`],
              message: `this folder may not import src/${folder}/ (docs/architecture.md says which way imports flow).`,
            })),
            ...extra,
          ],
        },
      ],
    },
  };
}

/** A pattern that forbids every module of src/<folder>/ but its entry, index.ts. */
function entryOnly(folder) {
  return {
    group: [`**/${folder}/**`, `../${folder}/**`, `!**/${folder}/index.js`, `!../${folder}/index.js`],
    message: `only src/${folder}/index.ts may be imported from outside src/${folder}/ (docs/architecture.md).`,
  };
}

/** The front door, the two tiers and the model they share (docs/architecture.md). */
const TIERS = ['host', 'engine', 'thread-host', 'model'];

const RUNTIME_LIBRARIES = {
  group: ['node:*', 'piscina', 'p-timeout'],
  message: 'src/contracts holds types, schemas and the wire protocol only: no runtime modules.',
};

export default tseslint.config(
  { ignores: ['dist/', '**/dist/', 'node_modules/', 'coverage/', '.bench/', 'fixtures/'] },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  {
    languageOptions: {
      // The Node globals the plain-JS scripts use (TypeScript files get theirs from @types/node).
      globals: Object.fromEntries(
        ['process', 'console', 'URL', 'AbortController', 'setTimeout', 'clearTimeout', 'Buffer'].map((name) => [
          name,
          'readonly',
        ]),
      ),
    },
    rules: {
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_' }],
    },
  },
  wall(
    ['src/contracts/**'],
    [...TIERS, 'runtime', 'author', 'worker', 'discovery', 'documents', 'check', 'cli', 'bench', 'leaves'],
    [RUNTIME_LIBRARIES],
  ),
  wall(['src/runtime/**'], [...TIERS, 'author', 'worker', 'discovery', 'documents', 'check', 'cli', 'bench', 'leaves']),
  wall(['src/author/**'], [...TIERS, 'worker', 'discovery', 'documents', 'check', 'cli', 'bench', 'leaves']),
  wall(['src/worker/**'], [...TIERS, 'discovery', 'documents', 'check', 'cli', 'bench', 'leaves']),
  wall(['src/discovery/**'], [...TIERS, 'author', 'worker', 'documents', 'check', 'cli', 'bench', 'leaves']),
  wall(['src/documents/**'], [...TIERS, 'author', 'worker', 'check', 'cli', 'bench', 'leaves']),
  // The model both tiers share imports neither tier, nor the front door above them.
  wall(['src/model/**'], ['thread-host', 'engine', 'host', 'author', 'worker', 'check', 'cli', 'bench', 'leaves']),
  // The thread tier: the model and below; never the process tier or the front door.
  wall(['src/thread-host/**'], ['engine', 'host', 'author', 'worker', 'check', 'cli', 'bench', 'leaves']),
  // The process tier boots the thread tier inside its engine process, through its entry alone.
  wall(['src/engine/**'], ['host', 'author', 'worker', 'check', 'cli', 'bench', 'leaves'], [entryOnly('thread-host')]),
  // The front door: the one place that knows both tiers, each through its entry.
  wall(
    ['src/host/**'],
    ['author', 'worker', 'check', 'cli', 'bench', 'leaves'],
    [entryOnly('thread-host'), entryOnly('engine')],
  ),
  // Who uses the host goes through the front door; the benchmarks also time the thread tier's parts.
  wall(['src/check/**'], ['thread-host', 'engine', 'author', 'worker', 'cli', 'bench', 'leaves']),
  wall(['src/cli/**'], ['thread-host', 'engine', 'author', 'worker', 'leaves']),
  wall(['src/bench/**'], ['engine', 'worker', 'check', 'cli', 'leaves']),
  wall(
    ['src/leaves/**'],
    [...TIERS, 'contracts', 'runtime', 'author', 'worker', 'discovery', 'documents', 'check', 'cli', 'bench'],
  ),
);

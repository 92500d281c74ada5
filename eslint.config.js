// Lint: typescript-eslint's recommended rules, plus the walls between the source folders.
// Each folder is a subsystem and imports flow one way (docs/architecture.md):
//   cli → check → host → discovery → documents/runtime → contracts;  worker → author → runtime → contracts;
//   engine → host (createHost alone reaches back into engine to start the process tier).
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
    ['runtime', 'author', 'worker', 'discovery', 'documents', 'host', 'engine', 'check', 'cli', 'bench', 'leaves'],
    [RUNTIME_LIBRARIES],
  ),
  wall(
    ['src/runtime/**'],
    ['author', 'worker', 'discovery', 'documents', 'host', 'engine', 'check', 'cli', 'bench', 'leaves'],
  ),
  wall(['src/author/**'], ['worker', 'discovery', 'documents', 'host', 'engine', 'check', 'cli', 'bench', 'leaves']),
  wall(['src/worker/**'], ['discovery', 'documents', 'host', 'engine', 'check', 'cli', 'bench', 'leaves']),
  wall(['src/discovery/**'], ['author', 'worker', 'documents', 'host', 'engine', 'check', 'cli', 'bench', 'leaves']),
  wall(['src/documents/**'], ['author', 'worker', 'host', 'engine', 'check', 'cli', 'bench', 'leaves']),
  // createHost picks the tier, so create-host.ts is the one host file that reaches into src/engine.
  {
    ...wall(['src/host/**'], ['author', 'worker', 'engine', 'check', 'cli', 'bench', 'leaves']),
    ignores: ['src/host/create-host.ts'],
  },
  wall(['src/host/create-host.ts'], ['author', 'worker', 'check', 'cli', 'bench', 'leaves']),
  wall(['src/engine/**'], ['author', 'worker', 'check', 'cli', 'bench', 'leaves']),
  wall(['src/check/**'], ['author', 'worker', 'cli', 'bench', 'leaves']),
  wall(
    ['src/leaves/**'],
    ['contracts', 'runtime', 'author', 'worker', 'discovery', 'documents', 'host', 'engine', 'check', 'cli', 'bench'],
  ),
);

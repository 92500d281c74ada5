import { defineConfig } from 'vitest/config';

// Four projects, run in this order: `unit` (one module at a time, seconds), `integration`
// (real worker threads, processes and interpreters), `zoo-process` (the zoo in the process tier) and `slow` (the jq conformance suite and
// the `check` matrix over every built-in leaf, the public-surface compile). `npm test` runs all four; `npm run test:unit`
// (or `npx vitest --project unit`) only the fast one.
const SLOW = [
  'test/unit/leaves/jq/conformance.test.ts',
  'test/integration/cli/check.test.ts',
  // Compiles the public surface with the TypeScript compiler API.
  'test/unit/public-surface.test.ts',
  // Packs and installs the tarballs; compiles a consumer against the shipped declarations.
  'test/integration/package/*.test.ts',
  // Issue 17's load tests: a 200-EXEC burst and a 3,000-run soak over the built-in leaves.
  'test/integration/host/load.test.ts',
  // 2,000 runs through the process tier while its engine is killed (issue 14).
  'test/integration/engine/engine-soak.test.ts',
  // 1,000 runs that each leave two orphans to the engine's namespace init (issue 31; 5,000 on request).
  'test/integration/engine/engine-orphan-soak.test.ts',
];
// Tests under test/unit that boot a host or spawn interpreters: integration by cost.
const THREADED = ['test/unit/leaves/**/*.test.ts'];

// CI asks for a JSON report beside the terminal one (PLURNK_EXECS_TEST_REPORT=<file>) so it can
// print the failed tests last, where a truncated log still shows them.
const REPORT = process.env.PLURNK_EXECS_TEST_REPORT;

// Integration tests start real worker threads and real process groups; on a 2-core machine
// they run one file at a time so timing-sensitive cases (grace, probe timeouts) stay honest.
// On a shared machine a neighbour's load can still push one of them past a bound, so a failed
// integration or slow test runs once more: a broken behaviour fails both times, and CI prints
// every test that passed only on retry (.ci/summarize-failures.mjs), so a flaky one is seen.
const RETRY_LOADED = 1;
export default defineConfig({
  test: {
    fileParallelism: false,
    testTimeout: 30_000,
    hookTimeout: 30_000,
    env: { PLURNK_EXECS_ERROR_DETAIL_LIMIT: '512' },
    globalSetup: ['test/global-setup.ts'],
    reporters: REPORT ? ['default', 'json'] : ['default'],
    ...(REPORT ? { outputFile: { json: REPORT } } : {}),
    projects: [
      {
        extends: true,
        test: {
          name: 'unit',
          include: ['test/unit/**/*.test.ts'],
          exclude: [...THREADED, ...SLOW],
          sequence: { groupOrder: 0 },
        },
      },
      {
        extends: true,
        test: {
          name: 'integration',
          // test/compat: the 1.x compatibility tests boot hosts and run leaves too.
          include: ['test/integration/**/*.test.ts', 'test/compat/**/*.test.ts', ...THREADED],
          exclude: SLOW,
          retry: RETRY_LOADED,
          sequence: { groupOrder: 1 },
        },
      },
      {
        // The zoo again, in the process tier (test/helpers/tier.ts): the same files and verdicts.
        extends: true,
        test: {
          name: 'zoo-process',
          include: ['test/integration/zoo/**/*.test.ts'],
          env: { PLURNK_EXECS_ERROR_DETAIL_LIMIT: '512', PLURNK_EXECS_TEST_ISOLATION: 'process' },
          retry: RETRY_LOADED,
          sequence: { groupOrder: 2 },
        },
      },
      {
        extends: true,
        // --expose-gc: the engine soak compares the service's RSS after a collection.
        test: {
          name: 'slow',
          include: SLOW,
          retry: RETRY_LOADED,
          execArgv: ['--expose-gc'],
          sequence: { groupOrder: 3 },
        },
      },
    ],
  },
});

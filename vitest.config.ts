import { defineConfig } from 'vitest/config';

// Integration tests start real worker threads and real process groups; on a 2-core machine
// they run one file at a time so timing-sensitive cases (grace, probe timeouts) stay honest.
export default defineConfig({
  test: {
    include: ['test/**/*.test.ts'],
    fileParallelism: false,
    testTimeout: 30_000,
    hookTimeout: 30_000,
    env: { PLURNK_EXECS_ERROR_DETAIL_LIMIT: '512' },
  },
});

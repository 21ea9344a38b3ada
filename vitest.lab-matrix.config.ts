import { defineConfig } from 'vitest/config';

/**
 * The lab matrix (tests/lab/own-matrix.test.ts) as its own phase of `npm test`, after the main run: its labs time
 * a harness's retries and wait on its turns, so they get the machine to themselves rather than ~280 files beside them.
 */
export default defineConfig({
  test: {
    include: ['tests/lab/own-matrix.test.ts'],
    globalSetup: ['tests/global/leftover-guard.ts'],
    setupFiles: ['tests/global/shell-parser.ts'],
    pool: 'forks',
    testTimeout: 30_000,
    hookTimeout: 30_000,
  },
});

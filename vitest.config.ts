import { configDefaults, defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    include: ['src/**/*.test.ts', 'tests/**/*.test.ts'],
    // The lab matrix is npm test's second phase, on its own (vitest.lab-matrix.config.ts).
    exclude: [...configDefaults.exclude, 'tests/lab/own-matrix.test.ts'],
    // Fails the run when a test leaves files in traces/, reports/, recordings/ or the temp directory.
    globalSetup: ['tests/global/leftover-guard.ts'],
    // The bash grammar, loaded on demand in the product (runAgent awaits it), loaded up front for unit tests.
    setupFiles: ['tests/global/shell-parser.ts'],
    testTimeout: 30_000,
    hookTimeout: 30_000,
  },
});

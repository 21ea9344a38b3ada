import { availableParallelism } from 'node:os';
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
    // Two test files at once at least: the long ones mostly wait on child processes (the real agents, npm pack, the
    // README's commands), and vitest's default (cores - 1) ran them one at a time on a 2-core CI runner: 1,438 s
    // there, 914 s with two (Dec 6, same machine, every test passing both ways).
    maxWorkers: Math.max(2, availableParallelism() - 1),
    testTimeout: 30_000,
    hookTimeout: 30_000,
  },
});

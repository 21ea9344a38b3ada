/**
 * Temporary directories a test file makes, removed when the file's tests are
 * done: `npm test` leaves nothing behind (tests/global/leftover-guard.ts
 * fails the run otherwise). Import this from the test file or a helper it
 * imports at the top, so the clean-up is registered with the file.
 */
import { mkdtempSync, realpathSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll } from 'vitest';

const made = new Set<string>();

afterAll(() => {
  for (const path of made) rmSync(path, { recursive: true, force: true });
  made.clear();
});

/** Removes `path` (a directory this file made some other way, e.g. a workspace) once the file's tests are done. */
export function removeAfterFile<T extends string>(path: T): T {
  made.add(path);
  return path;
}

/** A fresh directory under the temp directory (real path), removed once the file's tests are done. */
export function tempDir(prefix = 'faultline-test-'): string {
  return removeAfterFile(realpathSync(mkdtempSync(join(tmpdir(), prefix))));
}

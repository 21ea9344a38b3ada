/** The suite runs with a TMPDIR deeper than /tmp (tests/global/leftover-guard.ts), as on macOS and in CI workspaces. */
import { tmpdir } from 'node:os';
import { describe, expect, it } from 'vitest';
import { LONG_TMPDIR } from './leftover-guard.js';

describe('the temporary directory of a test run', () => {
  it('is well over 100 characters long, shaped like a macOS TMPDIR', () => {
    expect(tmpdir().length).toBeGreaterThan(100);
    expect(tmpdir().endsWith(LONG_TMPDIR)).toBe(true);
  });
});

import { closeSync, mkdtempSync, readSync, rmSync, statSync, utimesSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { openEntrySync } from './open-entry.js';

describe('openEntrySync', () => {
  it('reads a file without rewriting its access time (a look is not a change to the disk)', () => {
    const dir = mkdtempSync(join(tmpdir(), 'noatime-'));
    try {
      const file = join(dir, 'f.txt');
      writeFileSync(file, 'hello');
      // An access time before the modification time: relatime would rewrite it on the next read.
      utimesSync(file, new Date(2000, 0, 1), new Date(2020, 0, 1));
      const before = statSync(file).atimeMs;
      const fd = openEntrySync(file);
      try {
        expect(readSync(fd, Buffer.alloc(16), 0, 16, 0)).toBe(5);
      } finally {
        closeSync(fd);
      }
      expect(statSync(file).atimeMs).toBe(before);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});

import { closeSync, mkdtempSync, openSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { readToEndSync } from './read-to-end.js';

const dir = mkdtempSync(join(tmpdir(), 'read-to-end-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

function read(content: Buffer, hint: number): Buffer {
  const file = join(dir, 'f');
  writeFileSync(file, content);
  const fd = openSync(file, 'r');
  try {
    return readToEndSync(fd, hint);
  } finally {
    closeSync(fd);
  }
}

describe('readToEndSync', () => {
  const bytes = (n: number) => Buffer.from(Array.from({ length: n }, (_, i) => (i * 7) % 256));
  it.each([0, 1, 17, 8_191, 8_192, 65_537])('%i bytes with the right size: all of them', (n) => {
    expect(read(bytes(n), n).equals(bytes(n))).toBe(true);
  });
  it.each([
    [100_000, 10],
    [100_000, 0],
    [5, 1_000],
  ])('%i bytes when fstat said %i (the file changed since): all of them, to the end', (n, hint) => {
    expect(read(bytes(n), hint).equals(bytes(n))).toBe(true);
  });
});

import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import type { QuarantinedLine } from '../analysis/load.js';
import { readJsonDocument, readJsonLines } from './records.js';
import type { ImportContext } from './types.js';

const dir = mkdtempSync(join(tmpdir(), 'faultline-records-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

function context(): ImportContext & { bad: QuarantinedLine[] } {
  let i = 0;
  const bad: QuarantinedLine[] = [];
  return {
    file: 'f',
    bad,
    record: (line) => ({ index: i++, line }),
    skip: () => {},
    quarantine: (ref, reason) => void bad.push({ file: 'f', line: ref.line, kind: 'import', reason }),
    emit: () => {},
    warn: () => {},
    progress: () => {},
  };
}

describe('records', () => {
  it('gives each element of a pretty-printed document the line it starts on, across multi-byte text and chunk borders', async () => {
    const items = Array.from({ length: 3000 }, (_, n) => ({ n, text: 'é✓'.repeat(n % 50) }));
    const text = JSON.stringify({ data: items }, null, 2);
    const path = join(dir, 'doc.json');
    writeFileSync(path, text);
    const lines = text.split('\n');
    // Each element's `{` is on the line before its `"n": …` line: 0-based index of that line = 1-based number of the `{` line.
    const expected = items.map((it) => lines.findIndex((l) => l.trim() === `"n": ${it.n},`));
    const seen: [number, number][] = [];
    await readJsonDocument(path, context(), { paths: ['$.data.*'] }, (value, line) => seen.push([(value as { n: number }).n, line]));
    expect(seen.map(([n]) => n)).toEqual(items.map((i) => i.n));
    expect(seen.map(([, line]) => line)).toEqual(expected);
  });

  it('quarantines the rest of a document from where it stops being JSON, keeping the elements before it', async () => {
    const path = join(dir, 'torn.json');
    writeFileSync(path, '[\n  {"a": 1},\n  {"a": 2},\n  {"a": \n');
    const ctx = context();
    const seen: unknown[] = [];
    await readJsonDocument(path, ctx, { paths: ['$.*'] }, (value) => seen.push(value));
    expect(seen).toEqual([{ a: 1 }, { a: 2 }]);
    expect(ctx.bad).toMatchObject([{ line: 4, reason: expect.stringMatching(/^not JSON from this line on: /) }]);
  });

  it('reads JSON Lines, quarantining a blank, a non-JSON, a non-UTF-8 and a torn last line by number', async () => {
    const path = join(dir, 'lines.jsonl');
    writeFileSync(path, Buffer.concat([Buffer.from('{"a":1}\n\n{"a":\n'), Buffer.from([0xff, 0xfe, 0x0a]), Buffer.from('[{"b":1},{"b":2}]\n{"c":')]));
    const ctx = context();
    const seen: [unknown, number][] = [];
    await readJsonLines(path, ctx, (value, line) => seen.push([value, line]));
    expect(seen).toEqual([[{ a: 1 }, 1], [{ b: 1 }, 5], [{ b: 2 }, 5]]);
    expect(ctx.bad.map((b) => [b.line, b.reason.split(':')[0]])).toEqual([[2, 'empty line'], [3, 'not JSON'], [4, 'not valid UTF-8'], [6, 'torn last line (no trailing newline, not valid JSON)']]);
  });
});

/**
 * A source file saved by a Windows tool starts with a UTF-8 byte order mark. It is not part of the data (RFC 8259
 * lets a JSON parser ignore it): every importer reads such a file as it reads the same file without the mark, in
 * both layouts, JSON Lines (the first record is used, not quarantined as "not JSON") and one JSON document (which
 * without this was "not JSON from this line on" from its first byte). The inputs are the importers' fixtures.
 */
import { copyFileSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { basename, join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { cli } from '../cli/cli-io.js';
import { tempDir } from '../helpers/temp-dirs.js';

const fixtures = join(import.meta.dirname, 'fixtures');
const BOM = Buffer.from([0xef, 0xbb, 0xbf]);

const cases: { format: string; file: string; layout: 'JSON Lines' | 'one document' }[] = [
  { format: 'claude-code', file: 'claude-code/-home-dev-shop/4f1c9e2a-8b3d-4c55-9a1e-2d7b6f0c3a11.jsonl', layout: 'JSON Lines' },
  { format: 'otel', file: 'otel/openinference.jsonl', layout: 'JSON Lines' },
  { format: 'otel', file: 'otel/genai-export.json', layout: 'one document' },
  { format: 'openai-agents', file: 'openai-agents/spans.jsonl', layout: 'JSON Lines' },
  { format: 'openai-agents', file: 'openai-agents/batch.json', layout: 'one document' },
  { format: 'tau-bench', file: 'tau-bench/tool-calling-gpt-4o-0.0_range_0-3_user-gpt-4o-llm.json', layout: 'one document' },
  { format: 'tau2-bench', file: 'tau2-bench/json/results.json', layout: 'one document' },
];

/** Imports `source` copied into `dir` (with the mark first when `marked`); returns the result and the trace, the directory named alike. */
async function importCopy(format: string, source: string, dir: string, marked: boolean): Promise<{ code: number; result: unknown; trace: string }> {
  mkdirSync(dir, { recursive: true });
  const copy = join(dir, basename(source));
  if (marked) writeFileSync(copy, Buffer.concat([BOM, readFileSync(source)]));
  else copyFileSync(source, copy);
  const out = join(dir, 'out.jsonl');
  const ran = await cli(['import', format, copy, '--out', out, '--json']);
  const same = (text: string) => text.replaceAll(dir, '<dir>');
  return { code: ran.code, result: JSON.parse(same(ran.stdout)) as unknown, trace: same(readFileSync(out, 'utf8')) };
}

describe('importing a source file that starts with a byte order mark', () => {
  for (const { format, file, layout } of cases) {
    it(`${format}, ${layout} (${basename(file)}): every record as without the mark`, async () => {
      const root = tempDir();
      const plain = await importCopy(format, join(fixtures, file), join(root, 'same'), false);
      const marked = await importCopy(format, join(fixtures, file), join(root, 'same'), true);
      expect(marked.code).toBe(plain.code);
      expect(marked.result).toEqual(plain.result);
      expect(marked.trace).toEqual(plain.trace);
    }, 60_000);
  }
});

/**
 * Simulated prompt caching (sql/conformance.sql): a request hits when its
 * prefix_hash equals the previous request's in the same session (in seq
 * order, per input file); a request after one with no hash has nothing to hit.
 */
import { describe, expect, it } from 'vitest';
import { analyzeTraces } from '../../src/analysis/analyze.js';
import { findSection } from '../../src/analysis/report-model.js';
import { ev, line, tempDir, writeTrace } from './fixtures.js';

const req = (s: string, turn: number, prefix_hash: string | null, seq?: number) => ({ ...ev.modelRequest(s, turn), prefix_hash, ...(seq === undefined ? {} : { seq }) });

describe('prefix hits', () => {
  it('compare each request with the one before it in its session, in seq order, per input file', async () => {
    const dir = tempDir();
    const a = [ev.sessionStart('a'), req('a', 1, 'h'), req('a', 2, 'h'), req('a', 3, 'h')]; // 2 later, 2 hits
    const main = writeTrace(dir, 'main.jsonl', [
      ...a,
      // written out of seq order: by seq it is h1, h2, h2, (none), h2: 3 later requests (the last follows one with no hash), 1 hit
      ev.sessionStart('b'), req('b', 5, 'h2', 905), req('b', 1, 'h1', 901), req('b', 3, 'h2', 903), req('b', 2, 'h2', 902), req('b', 4, null, 904),
      ev.sessionStart('c'), req('c', 1, 'h'), // a first request has nothing to hit
      ev.sessionStart('d'), req('d', 1, 'h'), req('d', 2, null), req('d', 3, 'h'), // 1 later request, no hit
    ].map(line));
    const copy = writeTrace(dir, 'copy.jsonl', a.map(line)); // the same session in another file: its own sequence
    const analysis = await analyzeTraces([main, copy], { cache: { enabled: false } });
    expect(findSection(analysis, 'conformance_summary')?.rows[0]).toMatchObject({ later_requests: 8, prefix_hits: 5, prefix_hit_rate_of_later_requests: 5 / 8 });
  });
});

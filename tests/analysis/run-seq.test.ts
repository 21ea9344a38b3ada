/**
 * Seq gaps and duplicates (the Runs report) are added up from per-piece
 * facts (src/analysis/sql/derived/run_seq.sql). They must equal counting
 * every event's seq directly, also when a run's seqs overlap across pieces:
 * the same trace given twice, a writer that starts its seq over, lines lost.
 */
import { appendFileSync, copyFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { openReportRows, type AnalyzeOptions } from '../../src/analysis/analyze.js';
import { findSection } from '../../src/analysis/report-model.js';
import { cacheIn, noCache, report, scratch, sessions } from './row-cache-fixtures.js';

const tmp = scratch();

/** run_seq as the reports read it, and the same counted over every event. */
async function bothWays(paths: string[], cache: AnalyzeOptions['cache']): Promise<{ added: unknown[]; counted: unknown[] }> {
  const { duck, close } = await openReportRows(paths, { cache });
  try {
    const added = await duck.rows(
      `SELECT run_id, events, min_seq, max_seq, distinct_seq, first_ts, last_ts FROM run_seq
       JOIN (SELECT run_id, min(first_ts) AS first_ts, max(last_ts) AS last_ts FROM run_seq_facts GROUP BY run_id) USING (run_id) ORDER BY run_id`,
    );
    const counted = await duck.rows(
      'SELECT run_id, count(*) AS events, min(seq) AS min_seq, max(seq) AS max_seq, count(DISTINCT seq) AS distinct_seq, min(ts) AS first_ts, max(ts) AS last_ts FROM events GROUP BY run_id ORDER BY run_id',
    );
    return { added, counted };
  } finally {
    close();
  }
}

const runStart = JSON.stringify({ v: 1, ts: 1, seq: 0, run_id: 'r1', event: 'run_start', suite: 's', provider: 'mock', model: 'm', faultline_version: '0.1.0', node_version: 'v20', config_hash: 'c', tasks: 0 });
const reseq = (lines: string[], from: number): string[] => lines.map((l, i) => l.replace(/"seq":\d+/, `"seq":${from + i}`));

describe('seq gaps and duplicates from per-piece facts', { timeout: 180_000 }, () => {
  it('count a trace given twice (two copies) as every seq duplicated', async () => {
    const dir = tmp();
    const a = join(dir, 'a.jsonl');
    writeFileSync(a, [runStart, ...reseq(sessions(0, 10), 1)].join('\n') + '\n');
    copyFileSync(a, join(dir, 'b.jsonl'));
    const { added, counted } = await bothWays([a, join(dir, 'b.jsonl')], noCache);
    expect(added).toEqual(counted);
    const summary = findSection((await report([a, join(dir, 'b.jsonl')], noCache)).analysis, 'run_summary')?.rows[0];
    expect(summary).toMatchObject({ seq_duplicates: 81, seq_gaps: 0 });
  });

  it('stay exact when an appended piece starts its seq over or skips some (cached segments)', async () => {
    const dir = tmp();
    const trace = join(dir, 't.jsonl');
    const cache = cacheIn(join(dir, 'cache'));
    writeFileSync(trace, [runStart, ...reseq(sessions(0, 10), 1)].join('\n') + '\n');
    await report([trace], cache);
    // Seqs 41..80 again (40 duplicates), then 200.. (a gap of 119).
    appendFileSync(trace, [...reseq(sessions(10, 5), 41), ...reseq(sessions(15, 2), 200)].join('\n') + '\n');
    const { added, counted } = await bothWays([trace], cache);
    expect(added).toEqual(counted);
    const cached = await report([trace], cache);
    expect(findSection(cached.analysis, 'run_summary')?.rows[0]).toMatchObject({ seq_duplicates: 40, seq_gaps: 119 });
    expect(cached.figures).toEqual((await report([trace], noCache)).figures);
  });
});

/**
 * A Parquet input's rows are checked for what would make a report lie
 * (contract version, event name), reading only the row groups whose
 * statistics do not vouch for them (src/analysis/rows/parquet-proof.ts):
 * a bad row anywhere is still found, named and quarantined.
 */
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { analyzeTraces } from '../../src/analysis/analyze.js';
import { compactTraces } from '../../src/analysis/compact.js';
import { Duck, sqlString } from '../../src/analysis/duck.js';
import { rowsToCheck } from '../../src/analysis/rows/parquet-proof.js';
import { scratch, sessions } from './row-cache-fixtures.js';

const tmp = scratch();

/** A compacted trace of 6,000 sessions rewritten in row groups of 2,048 rows, with `extra` rows (SQL over `src`) added; sorted by event. */
async function parquetWith(extra: string[]): Promise<string> {
  const dir = tmp();
  const trace = join(dir, 't.jsonl');
  writeFileSync(trace, sessions(0, 6000).join('\n') + '\n');
  const compacted = join(dir, 'compacted.parquet');
  await compactTraces([trace], compacted);
  const out = join(dir, 'rows.parquet');
  const duck = await Duck.open();
  try {
    const src = `read_parquet(${sqlString(compacted)})`;
    const rows = [`SELECT * FROM ${src}`, ...extra.map((sql) => sql.replaceAll('src', src))].join(' UNION ALL ');
    await duck.exec(`COPY (SELECT * FROM (${rows}) ORDER BY event, seq) TO ${sqlString(out)} (FORMAT parquet, ROW_GROUP_SIZE 2048)`);
  } finally {
    duck.close();
  }
  return out;
}

describe('rows of a Parquet input', { timeout: 120_000 }, () => {
  it('are read to be checked only where statistics do not vouch for them: the row groups between two events', async () => {
    const path = await parquetWith([]);
    const duck = await Duck.open();
    try {
      const ranges = await rowsToCheck(duck, path);
      expect(ranges).not.toContain('true');
      expect(ranges.length).toBeGreaterThan(0);
      const condition = ranges.join(' OR ');
      const [r] = await duck.rows(`SELECT count(*) AS total, count(*) FILTER (WHERE ${condition}) AS checked FROM read_parquet(${sqlString(path)}, file_row_number=true)`);
      expect(Number(r?.checked)).toBeGreaterThan(0);
      expect(Number(r?.checked)).toBeLessThan(Number(r?.total) / 2);
    } finally {
      duck.close();
    }
  });

  it('are all found when bad, wherever they lie: a newer contract version, an unknown event between two known ones', async () => {
    const path = await parquetWith([
      `SELECT * REPLACE (2 AS v) FROM (SELECT * FROM src WHERE event = 'session_end' ORDER BY seq LIMIT 1 OFFSET 1500)`,
      `SELECT * REPLACE ('tool_sucess' AS event) FROM (SELECT * FROM src WHERE event = 'tool_success' LIMIT 1)`,
    ]);
    const analysis = await analyzeTraces([path], { cache: { enabled: false } });
    expect(analysis.load.quarantined.map((q) => [q.kind, q.reason])).toEqual([
      ['parquet_row', 'contract version v=2 is newer than supported v=1'],
      ['parquet_row', 'unknown event "tool_sucess"'],
    ]);
    expect(analysis.load.eventsUsed).toBe(6000 * 8);
  });
});

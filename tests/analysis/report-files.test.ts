/** Report files (src/analysis/reports.ts): working tables before sections, each computed once and dropped after. */
import { describe, expect, it } from 'vitest';
import { reportColumns } from '../../src/analysis/analyze.js';
import { parseSections, parseTables, REPORTS, reportSql, runAllReports } from '../../src/analysis/reports.js';
import { openRows } from '../../src/analysis/rows/open-rows.js';
import { ev, line, tempDir, writeTrace } from './fixtures.js';

const FILE = `-- A report: its header comment.

-- table: first_step
-- What the first step keeps.
SELECT 1 AS x;

-- table: second_step
SELECT x + 1 AS y FROM first_step
-- a comment that introduces the section below

-- section: one | The first section | summary
SELECT y FROM second_step;

-- section: two | The second | first 5
SELECT 2 AS z
ORDER BY z;
`;

describe('report files', () => {
  it('split into working tables and sections, each statement without the comments that introduce the next', () => {
    expect(parseTables(FILE)).toEqual([
      { name: 'first_step', sql: '-- What the first step keeps.\nSELECT 1 AS x' },
      { name: 'second_step', sql: 'SELECT x + 1 AS y FROM first_step' },
    ]);
    expect(parseSections(FILE).map((s) => [s.id, s.title, s.summary, s.limit, s.sql])).toEqual([
      ['one', 'The first section', true, null, 'SELECT y FROM second_step'],
      ['two', 'The second', false, 5, 'SELECT 2 AS z\nORDER BY z'],
    ]);
  });

  it('refuse a table name that is not lower_snake_case', () => {
    expect(() => parseTables('-- table: Bad-Name\nSELECT 1')).toThrow(/lower_snake_case/);
  });

  it('leave no working table behind once every report ran', async () => {
    const path = writeTrace(tempDir(), 'trace.jsonl', [ev.sessionStart('a'), ev.toolCall('a', 'read', 't1'), ev.toolSuccess('a', 'read', 't1', 5)].map(line));
    const { duck, close } = await openRows([{ path, format: 'jsonl' }], reportColumns(), { cache: { enabled: false } });
    try {
      const tables = () => duck.rows(`SELECT table_name FROM duckdb_tables() ORDER BY 1`);
      const before = await tables();
      await runAllReports(duck);
      expect(await tables()).toEqual(before);
      expect(REPORTS.flatMap((r) => parseTables(reportSql(r.id))).length).toBeGreaterThan(0);
    } finally {
      close();
    }
  });
});

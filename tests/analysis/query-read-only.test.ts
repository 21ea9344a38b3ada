/**
 * `faultline query` runs exactly one read-only statement over the loaded
 * traces: several statements, anything that writes, loads, attaches or
 * changes a setting, and reads outside the traces are usage errors (exit 2),
 * judged by DuckDB's own statement parsing; an unknown table lists the views.
 */
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { queryTraces } from '../../src/analysis/query.js';
import { cli } from '../cli/cli-io.js';
import { goldenLines } from './golden-trace.js';
import { tempDir, writeTrace } from './fixtures.js';

const trace = () => writeTrace(tempDir(), 't.jsonl', goldenLines());

describe('faultline query is one read-only statement', () => {
  it('refuses several statements instead of running only the first', async () => {
    const r = await cli(['query', 'SELECT 1 AS a; SELECT 2 AS b', trace()]);
    expect(r.stderr).toMatch(/exactly one statement.*2 statements/);
    expect(r.stdout).toBe('');
    expect(r.code).toBe(2);
  });

  it('refuses COPY ... TO and writes nothing', async () => {
    const dir = tempDir();
    const out = join(dir, 'leak.csv');
    const r = await cli(['query', `COPY (SELECT * FROM events) TO '${out}'`, trace()]);
    expect(r.stderr).toMatch(/read-only.*COPY/);
    expect(r.code).toBe(2);
    expect(existsSync(out)).toBe(false);
  });

  const writing = [
    `ATTACH '${join(tempDir(), 'x.db')}' AS x`,
    'INSTALL httpfs',
    'LOAD json',
    'CREATE TABLE t AS SELECT 1',
    'CREATE VIEW tool_call2 AS SELECT * FROM tool_call',
    `EXPORT DATABASE '${join(tempDir(), 'export')}'`,
    'SET threads = 1',
    'PRAGMA enable_profiling',
    'INSERT INTO lines SELECT * FROM lines',
    'DELETE FROM lines',
    'DROP VIEW events',
    'CALL pragma_version()',
    `EXPLAIN ANALYZE COPY (SELECT 1) TO '${join(tempDir(), 'x.csv')}'`,
  ];
  for (const sql of writing) {
    it(`refuses ${sql.split(' ').slice(0, 2).join(' ')}`, async () => {
      const r = await cli(['query', sql, trace()]);
      expect(r.stderr).toMatch(/query runs one read-only SELECT/);
      expect(r.stderr).not.toMatch(/internal error/);
      expect(r.code).toBe(2);
    });
  }

  it('reads nothing outside the loaded traces', async () => {
    const r = await cli(['query', "SELECT * FROM read_text('/etc/hostname')", trace()]);
    expect(r.stderr).toMatch(/reads only the loaded traces/);
    expect(r.code).toBe(2);
  });

  it('runs SELECT, WITH, FROM-first, DESCRIBE and SUMMARIZE', async () => {
    const path = trace();
    for (const sql of ['SELECT count(*) AS n FROM events', 'WITH c AS (SELECT tool FROM tool_call) SELECT count(*) AS n FROM c', 'FROM tool_call SELECT tool', 'DESCRIBE events', 'SUMMARIZE tool_call']) {
      const r = await cli(['query', sql, path, '--json']);
      expect(r.stderr, sql).toBe('');
      expect(r.code, sql).toBe(0);
    }
  });

  it('lists the available views on an unknown table', async () => {
    const r = await cli(['query', 'SELECT * FROM tool_calls', trace()]);
    expect(r.stderr).toMatch(/tool_calls/);
    expect(r.stderr).toMatch(/available views: events, .*\btool_call\b.*\btool_failure\b/);
    expect(r.code).toBe(2);
  });

  it('says so in --help', async () => {
    expect((await cli(['query', '--help'])).stdout).toMatch(/exactly one read-only statement/);
  });

  it('holds with on-disk storage (big inputs)', async () => {
    const out = await queryTraces('SELECT count(*) AS n FROM events', [trace()], { storage: 'disk' });
    expect(out.rows).toEqual([{ n: goldenLines().length }]);
    await expect(queryTraces("COPY events TO '/tmp/x.csv'", [trace()], { storage: 'disk' })).rejects.toThrow(/read-only/);
  });
});

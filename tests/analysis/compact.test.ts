/**
 * `faultline compact` keeps the contract verdicts: a report over the
 * Parquet file it writes says how many lines of the source were read and
 * which were quarantined, and why, with every other figure unchanged.
 */
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { compactTraces } from '../../src/analysis/compact.js';
import { Duck, sqlString } from '../../src/analysis/duck.js';
import { readRowsMetadata } from '../../src/analysis/rows/rows-metadata.js';
import { factsOf } from '../../src/analysis/rows/run-seq.js';
import { badLines, noCache, report, scratch, sessions } from './row-cache-fixtures.js';

const tmp = scratch();

describe('a compacted trace', { timeout: 180_000 }, () => {
  it('reports like its source: lines read, every quarantined line with its reason, and every figure', async () => {
    const dir = tmp();
    const trace = join(dir, 't.jsonl');
    writeFileSync(trace, [...sessions(0, 20), ...badLines(), ...sessions(20, 10)].join('\n') + '\n');
    const parquet = join(dir, 't.parquet');
    await compactTraces([trace], parquet);
    const [source, compacted] = [await report([trace], noCache), await report([parquet], noCache)];
    expect(compacted.analysis.load.linesRead).toBe(source.analysis.load.linesRead);
    expect(compacted.analysis.load.quarantined).toEqual(source.analysis.load.quarantined);
    expect(compacted.analysis.load.quarantined.map((q) => q.kind)).toEqual(['not_json', 'not_json', 'schema', 'unknown_event']);
    // The header names each report's own input (the trace, the Parquet file) with the same lines and run ids.
    expect(compacted.analysis.inputs.map((i) => i.path)).toEqual([parquet]);
    const unnamed = (figures: unknown) => {
      const { files: _files, inputs, ...rest } = figures as { files: unknown; inputs: { path: string }[] };
      return { ...rest, inputs: inputs.map(({ path: _path, ...input }) => input) };
    };
    expect(unnamed(compacted.figures)).toEqual(unnamed(source.figures));
    expect(compacted.analysis.inputs[0]).toMatchObject({ lines: source.analysis.load.linesRead, empty: false, run_ids: ['r1'] });
  });

  it('holds each event\'s rows together, and the per-run seq facts of its rows in its metadata', async () => {
    const dir = tmp();
    const trace = join(dir, 't.jsonl');
    writeFileSync(trace, sessions(0, 15).join('\n') + '\n');
    const parquet = join(dir, 't.parquet');
    await compactTraces([trace], parquet);
    const duck = await Duck.open();
    try {
      const rows = await duck.rows(`SELECT event FROM read_parquet(${sqlString(parquet)}, file_row_number=true) ORDER BY file_row_number`);
      const events = rows.map((r) => String(r.event));
      // Each event's rows are together: as many runs of one value as there are values.
      const runs = events.filter((e, i) => i === 0 || e !== events[i - 1]);
      expect(runs).toEqual([...new Set(events)]);
      expect(runs.length).toBeGreaterThan(3);
      const meta = await readRowsMetadata(duck, parquet);
      expect(meta?.facts).toEqual(await factsOf(duck, `read_parquet(${sqlString(parquet)})`));
      expect(meta?.facts).toHaveLength(1);
    } finally {
      duck.close();
    }
  });

  it('sorts a trace of many row groups by event, so a per-event view reads only its own row groups', async () => {
    const dir = tmp();
    const trace = join(dir, 'big.jsonl');
    writeFileSync(trace, sessions(0, 40_000).join('\n') + '\n'); // 320,000 events: several row groups, written in parallel
    const parquet = join(dir, 'big.parquet');
    await compactTraces([trace], parquet);
    const duck = await Duck.open();
    try {
      const groups = await duck.rows(
        `SELECT row_group_id, stats_min_value AS lo, stats_max_value AS hi FROM parquet_metadata(${sqlString(parquet)}) WHERE path_in_schema = 'event' ORDER BY row_group_id`,
      );
      expect(groups.length).toBeGreaterThan(2);
      // In file order each row group starts at or after the last event of the one before it.
      for (let i = 1; i < groups.length; i++) expect(String(groups[i]?.lo) >= String(groups[i - 1]?.hi), `row group ${i}: ${JSON.stringify(groups.slice(i - 1, i + 1))}`).toBe(true);
    } finally {
      duck.close();
    }
  });

  it('written by an older faultline (metadata format 1, facts without times) keeps its verdicts; its facts are counted again', async () => {
    const dir = tmp();
    const trace = join(dir, 't.jsonl');
    writeFileSync(trace, [...sessions(0, 20), ...badLines()].join('\n') + '\n');
    const current = join(dir, 'current.parquet');
    await compactTraces([trace], current);
    const old = join(dir, 'old.parquet');
    const duck = await Duck.open();
    try {
      const meta = await readRowsMetadata(duck, current);
      const formatOne = { ...meta, format: 1, facts: (meta?.facts ?? []).map((f) => f.slice(0, 5)) };
      await duck.exec(`COPY (SELECT * FROM read_parquet(${sqlString(current)})) TO ${sqlString(old)} (FORMAT parquet, KV_METADATA {'faultline.rows': ${sqlString(JSON.stringify(formatOne))}})`);
      expect((await readRowsMetadata(duck, old))?.facts).toBeNull();
    } finally {
      duck.close();
    }
    const [fresh, older] = [await report([current], noCache), await report([old], noCache)];
    expect(older.analysis.load.quarantined).toEqual(fresh.analysis.load.quarantined);
    expect(older.analysis.load.linesRead).toBe(fresh.analysis.load.linesRead);
    const identity = (r: typeof fresh) => r.analysis.reports.flatMap((x) => x.sections).find((x) => x.id === 'run_identity')?.rows;
    expect(identity(older)).toEqual(identity(fresh));
    expect(identity(fresh)?.[0]?.started).toMatch(/^\d{4}-\d\d-\d\d \d\d:\d\d:\d\d UTC$/);
  });
});


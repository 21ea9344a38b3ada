/**
 * Compacting what was compacted keeps the source's line books: a compacted
 * file's rows are only its source's valid lines, its metadata holds the
 * rest. So `lines read = used + quarantined` and `--strict` still fail
 * after any number of compactions, also onto the file's own path; and a
 * destination in a missing directory is the user's mistake (exit 2).
 */
import { existsSync, readdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { compactTraces } from '../../src/analysis/compact.js';
import { openTraces } from '../../src/analysis/analyze.js';
import { Duck, sqlString } from '../../src/analysis/duck.js';
import { cli } from '../cli/cli-io.js';
import { badLines, noCache, report, scratch, sessions } from './row-cache-fixtures.js';

const tmp = scratch();

describe('compacting a compacted trace', { timeout: 180_000 }, () => {
  it('keeps lines read, every quarantined line and its reason, through two compactions and onto its own input', async () => {
    const dir = tmp();
    const trace = join(dir, 't.jsonl');
    writeFileSync(trace, [...sessions(0, 12), ...badLines(), ...sessions(12, 5)].join('\n') + '\n');
    const once = join(dir, 'once.parquet');
    const twice = join(dir, 'twice.parquet');
    const first = await compactTraces([trace], once);
    const second = await compactTraces([once], twice);
    expect(first.quarantined).toHaveLength(4);
    expect(second.linesRead).toBe(first.linesRead);
    expect(second.quarantined).toEqual(first.quarantined);
    expect(second.linesRead).toBe(second.eventsUsed + second.quarantined.length);
    // Onto its own input: the same books, and the file is whole (a report reads it).
    const self = await compactTraces([twice], twice);
    expect(self.quarantined).toEqual(first.quarantined);
    expect(readdirSync(dir).filter((n) => n.endsWith('.tmp'))).toEqual([]);
    const source = await report([trace], noCache);
    const again = await report([twice], noCache);
    expect(again.analysis.load.linesRead).toBe(source.analysis.load.linesRead);
    expect(again.analysis.load.eventsUsed).toBe(source.analysis.load.eventsUsed);
    expect(again.analysis.load.quarantined).toEqual(source.analysis.load.quarantined);
    // `faultline query` reads the same books (openTraces, as compact does).
    const { duck, load } = await openTraces([twice], { columns: 'all' });
    duck.close();
    expect(load.linesRead).toBe(source.analysis.load.linesRead);
  });

  it('fails --strict over a twice-compacted trace whose source had quarantined lines, and passes a clean one', async () => {
    const dir = tmp();
    const dirty = join(dir, 'dirty.jsonl');
    const clean = join(dir, 'clean.jsonl');
    writeFileSync(dirty, [...sessions(0, 4), ...badLines()].join('\n') + '\n');
    writeFileSync(clean, sessions(0, 4).join('\n') + '\n');
    for (const [name, src] of [['dirty', dirty], ['clean', clean]] as const) {
      expect((await cli(['compact', src, '--to', join(dir, `${name}-1.parquet`)])).code).toBe(0);
      const r = await cli(['compact', join(dir, `${name}-1.parquet`), '--to', join(dir, `${name}-2.parquet`)]);
      expect(r.code).toBe(0);
      expect(r.stdout).toMatch(name === 'dirty' ? /= \d+ \+ 4\b/ : /= \d+ \+ 0\b/);
    }
    const strict = (name: string) => cli(['report', join(dir, `${name}-2.parquet`), '--strict', '--no-cache']);
    const bad = await strict('dirty');
    expect(bad.code).toBe(1);
    expect(bad.stderr + bad.stdout).toMatch(/quarantin/);
    expect((await strict('clean')).code).not.toBe(1);
  });

  it('compacts within a memory limit given to DuckDB (--memory-limit), with the same rows and books', async () => {
    const dir = tmp();
    const trace = join(dir, 't.jsonl');
    writeFileSync(trace, [...sessions(0, 8_000), ...badLines()].join('\n') + '\n'); // 64,000 events
    const small = join(dir, 'small.parquet');
    const load = await compactTraces([trace], small, { memoryLimit: '256MB' });
    expect(load.linesRead).toBe(load.eventsUsed + load.quarantined.length);
    const duck = await Duck.open();
    try {
      const [row] = await duck.rows(`SELECT count(*) AS n FROM read_parquet(${sqlString(small)})`);
      expect(row?.n).toBe(load.eventsUsed);
    } finally {
      duck.close();
    }
    // A limit too small to read the trace at all is the user's to raise (exit 2 from the CLI), named, not an internal error.
    await expect(compactTraces([trace], join(dir, 'tiny.parquet'), { memoryLimit: '16MB' })).rejects.toThrow(/ran out of memory within --memory-limit 16MB .*raise --memory-limit/);
    expect(readdirSync(dir).filter((n) => n.endsWith('.tmp') || n === 'tiny.parquet')).toEqual([]);
  });

  it('is a usage error (exit 2) naming the missing directory, and writes nothing', async () => {
    const dir = tmp();
    const trace = join(dir, 't.jsonl');
    writeFileSync(trace, sessions(0, 2).join('\n') + '\n');
    const missing = join(dir, 'no', 'such');
    const r = await cli(['compact', trace, '--to', join(missing, 'x.parquet')]);
    expect(r.code).toBe(2);
    expect(r.stderr).toContain(missing);
    expect(r.stderr).not.toMatch(/internal error|\n\s+at /);
    expect(existsSync(join(dir, 'no'))).toBe(false);
    const file = await cli(['compact', trace, '--to', join(trace, 'x.parquet')]);
    expect(file.code).toBe(2);
    expect(file.stderr).toMatch(/not a directory/);
    expect((await cli(['compact', trace, '--to', join(dir, 'x.parquet'), '--memory-limit', 'lots'])).code).toBe(2);
  });
});

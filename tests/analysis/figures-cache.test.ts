/**
 * The figures cache (src/analysis/rows/figures-cache.ts): a report of inputs
 * that did not change since the last report reads its figures back instead of
 * running the SQL again, and every figure `report --json` prints is that of a
 * fresh read. Any change to an input, or to the code that computes the
 * figures, computes them again.
 */
import { appendFileSync, existsSync, readdirSync, readFileSync, utimesSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { compactTraces } from '../../src/analysis/compact.js';
import type { Analysis } from '../../src/analysis/report-model.js';
import { resolveCache } from '../../src/analysis/rows/cache-root.js';
import { figuresDir, FiguresCache, MAX_ENTRIES } from '../../src/analysis/rows/figures-cache.js';
import { badLines, noCache, report, scratch, sessions } from './row-cache-fixtures.js';

const tmp = scratch();
const withFigures = (dir: string) => ({ dir, minBytes: 0 });

describe('the figures of a report of unchanged inputs', { timeout: 180_000 }, () => {
  it('are read back on the next report, and equal a fresh read, quarantine and inputs included', async () => {
    const dir = tmp();
    const cache = withFigures(join(dir, 'cache'));
    const trace = join(dir, 't.jsonl');
    writeFileSync(trace, [...sessions(0, 30), ...badLines(), ...sessions(30, 10)].join('\n') + '\n');
    const fresh = await report([trace], noCache);
    const first = await report([trace], cache);
    const second = await report([trace], cache);
    expect(first.cache.figures).toBe('stored');
    expect(second.cache.figures).toBe('hit');
    expect(second.cache.files[0]).toMatchObject({ use: 'unchanged', parsedBytes: 0, reusedBytes: readFileSync(trace).length });
    expect(first.figures).toEqual(fresh.figures);
    expect(second.figures).toEqual(fresh.figures);
    expect(second.analysis.inputs).toBe(second.analysis.load.inputs);
  });

  it('are computed again when an input grows, is rewritten in place, or is touched', async () => {
    const dir = tmp();
    const cache = withFigures(join(dir, 'cache'));
    const trace = join(dir, 't.jsonl');
    writeFileSync(trace, sessions(0, 20).join('\n') + '\n');
    await report([trace], cache);
    appendFileSync(trace, sessions(20, 5).join('\n') + '\n');
    const grown = await report([trace], cache);
    expect(grown.cache.figures).toBe('stored');
    expect(grown.figures).toEqual((await report([trace], noCache)).figures);
    // Same size, other bytes (a session id changed): a new mtime and a new tail checksum.
    writeFileSync(trace, readFileSync(trace, 'utf8').replaceAll('"s24"', '"s99"'));
    const rewritten = await report([trace], cache);
    expect(rewritten.cache.figures).toBe('stored');
    expect(rewritten.figures).toEqual((await report([trace], noCache)).figures);
    const later = new Date(Date.now() + 5_000);
    utimesSync(trace, later, later);
    expect((await report([trace], cache)).cache.figures).toBe('stored');
    expect((await report([trace], cache)).cache.figures).toBe('hit');
  });

  it('cover a set of inputs, Parquet among them, as that set: another set is another entry', async () => {
    const dir = tmp();
    const cache = withFigures(join(dir, 'cache'));
    const a = join(dir, 'a.jsonl');
    const b = join(dir, 'b.jsonl');
    writeFileSync(a, sessions(0, 15, 'ra').join('\n') + '\n');
    writeFileSync(b, sessions(0, 15, 'rb').join('\n') + '\n');
    const parquet = join(dir, 'b.parquet');
    await compactTraces([b], parquet);
    await report([a, parquet], cache);
    const again = await report([a, parquet], cache);
    expect(again.cache.figures).toBe('hit');
    expect(again.figures).toEqual((await report([a, parquet], noCache)).figures);
    expect((await report([a], cache)).cache.figures).toBe('stored');
    // The inputs as resolved (sorted, de-duplicated) are the key: the same files in another order are the same report.
    const reordered = await report([parquet, a], cache);
    expect(reordered.figures).toEqual((await report([parquet, a], noCache)).figures);
  });

  it('are not kept with --no-cache, nor for traces below the size the row cache keeps', async () => {
    const dir = tmp();
    const trace = join(dir, 't.jsonl');
    writeFileSync(trace, sessions(0, 10).join('\n') + '\n');
    const off = await report([trace], { enabled: false, dir: join(dir, 'off') });
    expect(off.cache.figures).toBe('off');
    expect(existsSync(join(dir, 'off'))).toBe(false);
    const small = await report([trace], { dir: join(dir, 'small') });
    expect(small.cache.figures).toBe('off');
    expect(existsSync(figuresDir(join(dir, 'small')))).toBe(false);
  });

  it('are computed again when the stored file is damaged, and written whole', async () => {
    const dir = tmp();
    const cache = withFigures(join(dir, 'cache'));
    const trace = join(dir, 't.jsonl');
    writeFileSync(trace, sessions(0, 10).join('\n') + '\n');
    const first = await report([trace], cache);
    const stored = readdirSync(figuresDir(cache.dir)).filter((n) => n.endsWith('.json'));
    expect(stored).toHaveLength(1);
    writeFileSync(join(figuresDir(cache.dir), stored[0]!), '{"load": ');
    const again = await report([trace], cache);
    expect(again.cache.figures).toBe('stored');
    expect(again.figures).toEqual(first.figures);
    expect((await report([trace], cache)).cache.figures).toBe('hit');
  });
});

describe('FiguresCache', () => {
  const analysis = (n: number, files: string[]): Analysis => ({ load: { files, inputs: [], copiedRuns: [], linesRead: n, eventsUsed: n, quarantined: [], rescued: 0, rereads: 0 }, inputs: [], reports: [] });

  it('keys the figures by the code that computes them too', () => {
    const dir = tmp();
    const trace = join(dir, 't.jsonl');
    writeFileSync(trace, sessions(0, 2).join('\n') + '\n');
    const cache = resolveCache(withFigures(join(dir, 'cache')));
    expect(FiguresCache.open([{ path: trace, format: 'jsonl' }], 'code-1', cache)!.write(analysis(1, [trace]))).toBe(true);
    expect(FiguresCache.open([{ path: trace, format: 'jsonl' }], 'code-1', cache)!.read()?.load.linesRead).toBe(1);
    expect(FiguresCache.open([{ path: trace, format: 'jsonl' }], 'code-2', cache)!.read()).toBeNull();
  });

  it('does not store figures when an input changed while they were computed', () => {
    const dir = tmp();
    const trace = join(dir, 't.jsonl');
    writeFileSync(trace, sessions(0, 2).join('\n') + '\n');
    const cache = resolveCache(withFigures(join(dir, 'cache')));
    const slot = FiguresCache.open([{ path: trace, format: 'jsonl' }], 'code', cache)!;
    appendFileSync(trace, sessions(2, 1).join('\n') + '\n');
    expect(slot.write(analysis(1, [trace]))).toBe(false);
    expect(FiguresCache.open([{ path: trace, format: 'jsonl' }], 'code', cache)!.read()).toBeNull();
  });

  it(`keeps the ${MAX_ENTRIES} most recently used entries`, () => {
    const dir = tmp();
    const trace = join(dir, 't.jsonl');
    writeFileSync(trace, sessions(0, 2).join('\n') + '\n');
    const cache = resolveCache(withFigures(join(dir, 'cache')))!;
    const slot = (i: number) => FiguresCache.open([{ path: trace, format: 'jsonl' }], `code-${i}`, cache)!;
    for (let i = 0; i < MAX_ENTRIES; i++) slot(i).write(analysis(i, [trace]));
    // Entry i last used i seconds after entry 0; then entry 0 is used again, now.
    const stored = (i: number) => readdirSync(figuresDir(cache.root)).filter((n) => n.endsWith('.json') && readFileSync(join(figuresDir(cache.root), n), 'utf8').includes(`"linesRead":${i},`));
    const base = Date.now() / 1000 - 3600;
    for (let i = 0; i < MAX_ENTRIES; i++) for (const n of stored(i)) utimesSync(join(figuresDir(cache.root), n), base + i, base + i);
    expect(slot(0).read()?.load.linesRead).toBe(0);
    for (let i = MAX_ENTRIES; i < MAX_ENTRIES + 6; i++) slot(i).write(analysis(i, [trace]));
    expect(readdirSync(figuresDir(cache.root)).filter((n) => n.endsWith('.json'))).toHaveLength(MAX_ENTRIES);
    expect(slot(0).read()?.load.linesRead).toBe(0);
    for (let i = 1; i <= 6; i++) expect(slot(i).read()).toBeNull();
    expect(slot(7).read()?.load.linesRead).toBe(7);
    expect(slot(MAX_ENTRIES + 5).read()?.load.linesRead).toBe(MAX_ENTRIES + 5);
  });
});

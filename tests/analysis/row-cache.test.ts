/**
 * The row cache (src/analysis/rows/): a second report of an unchanged or
 * grown trace reads the typed, checked rows it kept, parses only new bytes,
 * and never changes a figure: every figure `report --json` prints,
 * quarantine included, equals a report that reads the trace afresh.
 */
import { appendFileSync, readFileSync, renameSync, statSync, utimesSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { badLines, cacheIn, noCache, report, scratch, sessions } from './row-cache-fixtures.js';

const tmp = scratch();
const size = (p: string) => statSync(p).size;

describe('a second report of the same trace', { timeout: 180_000 }, () => {
  it('reads every row from the cache when the trace is unchanged, and every figure, quarantine included, is that of a fresh read', async () => {
    const dir = tmp();
    const trace = join(dir, 't.jsonl');
    writeFileSync(trace, [...sessions(0, 40), ...badLines(), ...sessions(40, 20)].join('\n') + '\n');
    const fresh = await report([trace], noCache);
    expect(fresh.analysis.load.quarantined).toHaveLength(badLines().length);
    const first = await report([trace], cacheIn(join(dir, 'cache')));
    const second = await report([trace], cacheIn(join(dir, 'cache')));
    expect(first.cache.files[0]).toMatchObject({ use: 'cold', parsedBytes: size(trace), reusedBytes: 0 });
    expect(second.cache.files[0]).toMatchObject({ use: 'unchanged', parsedBytes: 0, reusedBytes: size(trace) });
    expect(first.figures).toEqual(fresh.figures);
    expect(second.figures).toEqual(fresh.figures);
  });

  it('parses only the appended bytes of a grown trace, bad lines included, with the figures of a fresh read', async () => {
    const dir = tmp();
    const cache = cacheIn(join(dir, 'cache'));
    const trace = join(dir, 't.jsonl');
    writeFileSync(trace, sessions(0, 30).join('\n') + '\n');
    await report([trace], cache);
    for (const more of [[...badLines(), ...sessions(30, 10)], sessions(40, 5)]) {
      const before = size(trace);
      appendFileSync(trace, more.join('\n') + '\n');
      const grown = await report([trace], cache);
      expect(grown.cache.files[0]).toMatchObject({ use: 'appended', parsedBytes: size(trace) - before, reusedBytes: before });
      expect(grown.figures).toEqual((await report([trace], noCache)).figures);
    }
    const again = await report([trace], cache);
    expect(again.cache.files[0]).toMatchObject({ use: 'unchanged', parsedBytes: 0 });
    expect(again.figures).toEqual((await report([trace], noCache)).figures);
  });

  it('judges a torn last line again on every report, and counts it as an event once the writer completes it', async () => {
    const dir = tmp();
    const cache = cacheIn(join(dir, 'cache'));
    const trace = join(dir, 't.jsonl');
    const last = sessions(20, 1);
    const cut = Math.floor((last[0] as string).length / 2);
    const head = sessions(0, 20).join('\n') + '\n';
    writeFileSync(trace, head + (last[0] as string).slice(0, cut));
    const torn = await report([trace], cache);
    expect(torn.analysis.load.quarantined).toEqual([expect.objectContaining({ line: 161, kind: 'torn' })]);
    expect(torn.figures).toEqual((await report([trace], noCache)).figures);
    const still = await report([trace], cache);
    // Only the torn tail is read again; the lines before it come from the cache.
    expect(still.cache.files[0]).toMatchObject({ use: 'unchanged', parsedBytes: cut, reusedBytes: head.length });
    expect(still.figures).toEqual(torn.figures);
    appendFileSync(trace, (last[0] as string).slice(cut) + '\n' + last.slice(1).join('\n') + '\n');
    const done = await report([trace], cache);
    expect(done.cache.files[0]).toMatchObject({ use: 'appended', reusedBytes: head.length });
    expect(done.analysis.load.quarantined).toEqual([]);
    expect(done.figures).toEqual((await report([trace], noCache)).figures);
  });

  it('keeps a complete last line without a newline, and reads on after the newline that later ends it', async () => {
    const dir = tmp();
    const cache = cacheIn(join(dir, 'cache'));
    const trace = join(dir, 't.jsonl');
    writeFileSync(trace, sessions(0, 10).join('\n')); // no newline at the end, as `'\n'.join(lines)` writes
    const first = await report([trace], cache);
    expect(first.analysis.load.quarantined).toEqual([]);
    expect((await report([trace], cache)).cache.files[0]).toMatchObject({ use: 'unchanged', parsedBytes: 0 });
    const before = size(trace);
    appendFileSync(trace, '\n' + sessions(10, 5).join('\n'));
    const grown = await report([trace], cache);
    expect(grown.cache.files[0]).toMatchObject({ use: 'appended', parsedBytes: size(trace) - before - 1 });
    expect(grown.figures).toEqual((await report([trace], noCache)).figures);
    // The open last line was extended instead: its cached row is wrong, so the whole trace is read again.
    appendFileSync(trace, ' ');
    const extended = await report([trace], cache);
    expect(extended.cache.files[0]).toMatchObject({ use: 'stale', reusedBytes: 0 });
    expect(extended.figures).toEqual((await report([trace], noCache)).figures);
  });
});

describe('a trace rewritten since the last report', { timeout: 180_000 }, () => {
  // Big enough (about 450 KB) that an edit in the middle is outside the first and last 64 KiB blocks.
  const lines = () => [...sessions(0, 200), ...badLines()];
  /** The same lines with session `k`'s outcome flipped (k % 6 === 0: failed -> passed): same size. */
  const flipped = (k: number) => lines().map((l) => (l.includes(`"session_id":"s${k}"`) ? l.replace('"outcome":"failed"', '"outcome":"passed"') : l));
  const setup = async () => {
    const dir = tmp();
    const cache = cacheIn(join(dir, 'cache'));
    const trace = join(dir, 't.jsonl');
    writeFileSync(trace, lines().join('\n') + '\n');
    await report([trace], cache);
    return { dir, cache, trace };
  };
  const touchLater = (path: string) => {
    const t = statSync(path).mtimeMs / 1000 + 5;
    utimesSync(path, t, t);
  };

  it('is read afresh when truncated', async () => {
    const { cache, trace } = await setup();
    writeFileSync(trace, sessions(0, 12).join('\n') + '\n');
    touchLater(trace);
    const r = await report([trace], cache);
    expect(r.cache.files[0]).toMatchObject({ use: 'stale', reusedBytes: 0 });
    expect(r.figures).toEqual((await report([trace], noCache)).figures);
  });

  it('is read afresh when edited in the middle to the same size (a new mtime)', async () => {
    const { cache, trace } = await setup();
    const text = flipped(96).join('\n') + '\n';
    expect(text).not.toBe(readFileSync(trace, 'utf8'));
    expect(text.length).toBe(size(trace));
    writeFileSync(trace, text);
    touchLater(trace);
    const r = await report([trace], cache);
    expect(r.cache.files[0]).toMatchObject({ use: 'stale' });
    expect(r.figures).toEqual((await report([trace], noCache)).figures);
  });

  it('is read afresh when replaced by another file that starts the same and is longer', async () => {
    const { dir, cache, trace } = await setup();
    const other = join(dir, 'other.jsonl');
    writeFileSync(other, [...lines(), ...sessions(200, 5)].join('\n') + '\n');
    renameSync(other, trace);
    const r = await report([trace], cache);
    expect(r.cache.files[0]).toMatchObject({ use: 'stale' });
    expect(r.figures).toEqual((await report([trace], noCache)).figures);
  });

  it('is read afresh when it grew but the last block the cache covered changed', async () => {
    const { cache, trace } = await setup();
    writeFileSync(trace, [...flipped(198), ...sessions(200, 3)].join('\n') + '\n');
    const r = await report([trace], cache);
    expect(r.cache.files[0]).toMatchObject({ use: 'stale' });
    expect(r.figures).toEqual((await report([trace], noCache)).figures);
  });
});

describe('the books of several inputs through the cache', { timeout: 180_000 }, () => {
  it('names each input with its lines and run ids, an empty one, and a copied run, as a fresh read does', async () => {
    const dir = tmp();
    const cache = cacheIn(join(dir, 'cache'));
    const a = join(dir, 'a.jsonl');
    const copy = join(dir, 'b-copy.jsonl');
    const other = join(dir, 'c.jsonl');
    const empty = join(dir, 'd-empty.jsonl');
    writeFileSync(a, sessions(0, 12).join('\n') + '\n');
    writeFileSync(copy, readFileSync(a));
    // Another run numbering its sessions the same way: two sessions each, not one.
    writeFileSync(other, sessions(0, 5, 'r2').join('\n') + '\n');
    writeFileSync(empty, '');
    const paths = [a, copy, other, empty];
    const fresh = await report(paths, noCache);
    const first = await report(paths, cache);
    const second = await report(paths, cache);
    // The empty input has nothing to keep: it is read (0 bytes) each time.
    expect(second.cache.files.map((f) => f.use)).toEqual(['unchanged', 'unchanged', 'unchanged', 'cold']);
    const lines = (p: string) => readFileSync(p, 'utf8').split('\n').length - 1;
    const books = [
      { path: a, lines: lines(a), empty: false, run_ids: ['r1'] },
      { path: copy, lines: lines(copy), empty: false, run_ids: ['r1'] },
      { path: other, lines: lines(other), empty: false, run_ids: ['r2'] },
      { path: empty, lines: 0, empty: true, run_ids: [] },
    ];
    for (const r of [fresh, first, second]) {
      expect(r.analysis.inputs).toEqual(books);
      expect(r.analysis.load.copiedRuns).toEqual([{ run_id: 'r1', files: [a, copy] }]);
      expect(r.figures).toEqual(fresh.figures);
    }
  });
});

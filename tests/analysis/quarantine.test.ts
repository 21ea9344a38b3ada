import { describe, expect, it } from 'vitest';
import { readFileSync, writeFileSync } from 'node:fs';
import { gzipSync } from 'node:zlib';
import { join } from 'node:path';
import { analyzeTraces, openTraces } from '../../src/analysis/analyze.js';
import { checkTraceFile } from '../../src/events/check-trace.js';
import { parseLine } from '../../src/events/parse-line.js';
import { ev, line, tempDir, writeTrace } from './fixtures.js';

const good = () => line(ev.toolCall('s1', 'read', 't1'));

async function quarantineOf(lines: string[], opts: { torn?: boolean } = {}) {
  const dir = tempDir();
  const path = writeTrace(dir, 'trace.jsonl', lines, opts);
  const analysis = await analyzeTraces([path]);
  return { path, load: analysis.load };
}

describe('quarantine', () => {
  it('lists a malformed JSON line by file:line and still uses the good lines', async () => {
    const { path, load } = await quarantineOf([good(), '{"v":1,"event":', good()]);
    expect(load.quarantined).toEqual([{ file: path, line: 2, kind: 'not_json', reason: expect.stringMatching(/^not JSON: /) }]);
    expect(load).toMatchObject({ linesRead: 3, eventsUsed: 2 });
  });

  it('calls an unterminated unparsable last line torn', async () => {
    const { path, load } = await quarantineOf([good(), good(), '{"v":1,"ev'], { torn: true });
    expect(load.quarantined).toEqual([{ file: path, line: 3, kind: 'torn', reason: 'torn last line (no trailing newline, not valid JSON)' }]);
    expect(load).toMatchObject({ linesRead: 3, eventsUsed: 2 });
  });

  it('keeps a complete last line even without a trailing newline', async () => {
    const { load } = await quarantineOf([good(), good()], { torn: true });
    expect(load).toMatchObject({ linesRead: 2, eventsUsed: 2, quarantined: [] });
  });

  it('rejects a schema violation that a lenient reader would coerce (string duration)', async () => {
    const bad = line({ ...ev.toolSuccess('s1', 'read', 't1', 5), duration_ms: '5' });
    const { path, load } = await quarantineOf([good(), bad]);
    expect(load.quarantined).toEqual([{ file: path, line: 2, kind: 'schema', reason: parseReason(bad) }]);
    expect(load.eventsUsed).toBe(1);
  });

  it('rejects an unknown event name', async () => {
    const bad = line({ ...ev.toolCall('s1', 'read', 't1'), event: 'tool_teleport' });
    const { load } = await quarantineOf([bad, good()]);
    expect(load.quarantined).toMatchObject([{ line: 1, kind: 'unknown_event', reason: 'unknown event "tool_teleport"' }]);
  });

  it('rejects a line from a newer contract version', async () => {
    const bad = line({ ...ev.toolCall('s1', 'read', 't1'), v: 2 });
    const { load } = await quarantineOf([good(), good(), bad]);
    expect(load.quarantined).toMatchObject([{ line: 3, kind: 'newer_version', reason: 'contract version v=2 is newer than supported v=1' }]);
  });

  it('rejects extra keys, missing nullable keys and non-object JSON like parseLine does', async () => {
    const extra = line({ ...ev.toolCall('s1', 'read', 't1'), note: 'x' });
    const { requested_tool: _dropped, ...missing } = ev.toolCall('s1', 'read', 't2');
    const { load } = await quarantineOf([extra, line(missing), '[1,2]', '"text"', good()]);
    expect(load.quarantined.map((q) => [q.line, q.kind])).toEqual([
      [1, 'schema'],
      [2, 'schema'],
      [3, 'not_object'],
      [4, 'not_object'],
    ]);
    expect(load.eventsUsed).toBe(1);
  });

  it('counts blank lines and keeps line numbers exact after them', async () => {
    const { load } = await quarantineOf([good(), '', good(), 'oops']);
    expect(load.quarantined.map((q) => [q.line, q.kind])).toEqual([
      [2, 'not_json'],
      [4, 'not_json'],
    ]);
    expect(load).toMatchObject({ linesRead: 4, eventsUsed: 2 });
  });

  it('gives rows after whitespace-only lines their physical line numbers (the reader skips those lines)', async () => {
    const call = (id: string) => line(ev.toolCall('s1', 'read', id));
    const extra = line({ ...ev.toolCall('s1', 'read', 't3'), note: 'x' });
    const path = writeTrace(tempDir(), 'gaps.jsonl', [call('t1'), '', '   ', call('t2'), '\t', extra, call('t4')]);
    const { duck, load } = await openTraces([path], { columns: 'all' });
    try {
      expect(load.quarantined.map((q) => q.line)).toEqual([2, 3, 5, 6]);
      const rows = await duck.rows(`SELECT line_no, tool_use_id FROM tool_call ORDER BY line_no`);
      expect(rows).toEqual([
        { line_no: 1, tool_use_id: 't1' },
        { line_no: 4, tool_use_id: 't2' },
        { line_no: 7, tool_use_id: 't4' },
      ]);
    } finally {
      duck.close();
    }
  });

  it('quarantines a line that is not UTF-8 instead of reading it garbled', async () => {
    const path = join(tempDir(), 'latin1.jsonl');
    const bad = Buffer.from(line(ev.expectation('s1', 'e', true, 'caf\u00e9')), 'latin1');
    writeFileSync(path, Buffer.concat([Buffer.from(good() + '\n'), bad, Buffer.from('\n' + good() + '\n')]));
    const { load } = await analyzeTraces([path]);
    expect(load.quarantined).toEqual([{ file: path, line: 2, kind: 'not_utf8', reason: 'not valid UTF-8' }]);
    expect(load).toMatchObject({ linesRead: 3, eventsUsed: 2 });
    expect((await checkTraceFile(path)).bad).toEqual([{ file: path, line: 2, reason: 'not valid UTF-8' }]);
  });

  it('reads a multi-byte character that straddles a read chunk boundary intact', async () => {
    const filler = good();
    const lines: string[] = [];
    let bytes = 0;
    // Fill to just below 1 MiB (the read chunk), so the next line crosses it.
    while (bytes + filler.length + 1 < (1 << 20) - 40) {
      lines.push(filler);
      bytes += filler.length + 1;
    }
    const detail = '\u00e9'.repeat(200);
    lines.push(line(ev.expectation('s1', 'e', true, detail)));
    const path = writeTrace(tempDir(), 'straddle.jsonl', lines);
    expect((await checkTraceFile(path)).bad).toEqual([]);
    const { duck, load } = await openTraces([path], { columns: 'all' });
    try {
      expect(load.quarantined).toEqual([]);
      expect(await duck.rows(`SELECT detail FROM expectation`)).toEqual([{ detail }]);
    } finally {
      duck.close();
    }
  });

  it('reads a file once when its bad lines are unreadable anyway, twice (numbered) when a bad line would be read as an event', async () => {
    const torn = await quarantineOf([good(), 'not json', good(), '{"v":1,"ev'], { torn: true });
    expect(torn.load).toMatchObject({ linesRead: 4, eventsUsed: 2, rereads: 0 });
    const schema = await quarantineOf([good(), line({ ...ev.toolCall('s1', 'read', 't9'), turn: -1 }), good()]);
    expect(schema.load).toMatchObject({ linesRead: 3, eventsUsed: 2, rereads: 1 });
    expect(schema.load.quarantined.map((q) => [q.line, q.kind])).toEqual([[2, 'schema']]);
    // The row read for the bad line is the one set aside: the funnel counts only the two good calls.
    const { reports } = await analyzeTraces([schema.path]);
    const funnel = reports.flatMap((r) => r.sections).find((s) => s.id === 'tool_funnel');
    expect(funnel?.rows[0]).toMatchObject({ tool: 'read', calls: 2 });
  });

  it('reads a .jsonl.gz exactly like the plain file: same reports, same quarantine lines', async () => {
    const dir = tempDir();
    const lines = [good(), '', line({ ...ev.toolCall('s1', 'read', 't9'), turn: -1 }), good(), '{"v":1,"ev'];
    const plain = writeTrace(dir, 'plain.jsonl', lines, { torn: true });
    const gz = join(dir, 'packed.jsonl.gz');
    writeFileSync(gz, gzipSync(readFileSync(plain)));
    const [a, b] = [await analyzeTraces([plain]), await analyzeTraces([gz])];
    expect(b.reports).toEqual(a.reports);
    expect(b.load.quarantined.map((q) => [q.line, q.kind])).toEqual([
      [2, 'not_json'],
      [3, 'schema'],
      [5, 'torn'],
    ]);
    expect(b.load.quarantined.map((q) => q.reason)).toEqual(a.load.quarantined.map((q) => q.reason));
    expect(b.load).toMatchObject({ linesRead: 5, eventsUsed: 2 });
    expect((await checkTraceFile(gz)).bad.map((q) => q.line)).toEqual([2, 3, 5]);
  });

  it("proves a spaced producer's lines fast too (Python's json.dumps separators): nothing rescued, one read", async () => {
    const spaced = (e: Record<string, unknown>) => JSON.stringify(e).replace(/,"/g, ', "').replace(/":/g, '": ');
    const lines = [spaced(ev.toolCall('s1', 'read', 't1')), spaced(ev.toolSuccess('s1', 'read', 't1', 3)), spaced(ev.toolCall('s1', 'read', 't2'))];
    const { load } = await quarantineOf(lines);
    expect(load).toMatchObject({ linesRead: 3, eventsUsed: 3, quarantined: [], rescued: 0, rereads: 0 });
  });

  it('reconciles lines read = events used + lines quarantined across several files', async () => {
    const dir = tempDir();
    writeTrace(dir, 'a.jsonl', [good(), 'x', good()]);
    writeTrace(dir, 'b.jsonl', [good(), good()], { torn: true });
    const { load } = await analyzeTraces([dir]);
    expect(load.linesRead).toBe(load.eventsUsed + load.quarantined.length);
    expect(load).toMatchObject({ linesRead: 5, eventsUsed: 4 });
  });
});

function parseReason(text: string): string {
  const verdict = parseLine(text);
  if (verdict.ok) throw new Error('expected an invalid line');
  return verdict.reason;
}

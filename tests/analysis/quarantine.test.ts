import { describe, expect, it } from 'vitest';
import { analyzeTraces } from '../../src/analysis/analyze.js';
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

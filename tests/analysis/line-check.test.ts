import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { parseLine } from '../../src/events/parse-line.js';
import type { EventName } from '../../src/events/schemas.js';
import { analyzeTraces, openTraces } from '../../src/analysis/analyze.js';
import { eventLineRegex } from '../../src/events/line-regex.js';
import { ev, line, tempDir } from './fixtures.js';

/** Valid events of many kinds, then every field of each mutated in ways zod may or may not accept. */
const base = () => [
    ev.sessionStart('s1', ['denial_fuse'], { scenario: 'x' }),
    ev.sessionEnd('s1', 'passed'),
    ev.toolCall('s1', '<unknown>', 't1', { requested_tool: 'r'.repeat(64) }),
    ev.toolSuccess('s1', 'read', 't1', 1.5),
    { ...ev.toolSuccess('s1', 'read', 't1', 1.5), duration_source: 'turn' },
    ev.toolFailure('s1', 'bash', 't2', 'exception', 3),
    ev.permission('s1', 'bash', 't2', 'deny', 'deny_rule', false),
    ev.defenseTrigger('s1', 'denial_fuse', { tool: 'bash' }),
    ev.defenseStats('s1', 'denial_fuse', 3, 1),
    ev.modelRequest('s1'),
    ev.modelResponse('s1', 'null', { ttft_ms: 12.25 }),
    ev.modelError('s1', 'overloaded', false),
    ev.expectation('s1', 'e', true, 'd'),
  ];

function corpus(): string[] {
  const out: string[] = [];
  const variants: unknown[] = [null, '1', 1, -1, 1.5, 5.0, 2 ** 53, 1e300, true, 'read', '', 'x'.repeat(129), '😀'.repeat(33), 'é'.repeat(64), 'e\u0301'.repeat(33), '👨‍👩‍👧'.repeat(13), [], ['read'], ['<unknown>', 'bad name'], {}, 'denial_fuse'];
  for (const e of base()) {
    out.push(line(e));
    for (const key of Object.keys(e)) {
      const { [key]: _gone, ...without } = e;
      out.push(line(without));
      for (const v of variants) out.push(line({ ...e, [key]: v }));
    }
    out.push(line({ ...e, extra: 1 }));
    out.push(line(e).replace('"s1"', '"\\u0073\\u0031"')); // escapes in a string
  }
  out.push('[]', '"x"', '{}', 'null', '{"v":2}', '{"event":"nope","v":1}', '{"a":1}{"b":2}', ' ' + line(base()[0] ?? {}) + ' ');
  out.push(line(base()[3] ?? {}).replace(/,/g, ', ').replace(/":/g, '": ')); // Python's default separators
  return out;
}

describe('the fast line check', () => {
  it.each(['compact', 'general'] as const)('%s: accepts only lines parseLine accepts (every mutation of every field, in the key order written)', (flavour) => {
    const regexes = new Map(base().map((e) => [e.event as string, eventLineRegex(e.event as EventName, Object.keys(e), flavour)]));
    let proven = 0;
    for (const text of corpus()) {
      const event = /"event":"([a-z_]+)"/.exec(text)?.[1] ?? '';
      if (regexes.get(event)?.test(text)) {
        proven++;
        expect({ text, ok: parseLine(text).ok }).toEqual({ text, ok: true });
      }
    }
    // Not vacuous: the healthy lines and their harmless variants are proven fast.
    expect(proven).toBeGreaterThan(150);
  });

  it('general also proves spaced and escaped lines; compact leaves them to parseLine', () => {
    const spaced = line(ev.toolSuccess('s1', 'read', 't1', 2)).replace(/,"/g, ', "').replace(/":/g, '": ');
    const escaped = line(ev.expectation('s1', 'e', true, 'said "hi"\n'));
    for (const [text, event] of [[spaced, 'tool_success'], [escaped, 'expectation']] as const) {
      const order = Object.keys(JSON.parse(text) as object);
      expect(parseLine(text).ok).toBe(true);
      expect(eventLineRegex(event, order, 'general')?.test(text)).toBe(true);
      expect(eventLineRegex(event, order, 'compact')?.test(text)).toBe(false);
    }
  });

  it('proves a line with or without an optional field, in either key order, and nothing outside its label set', () => {
    const plain = ev.toolFailure('s1', 'bash', 't2', 'tool_error', 3);
    const { duration_ms, ...rest } = plain;
    const withSource = { ...rest, duration_ms, duration_source: 'timestamps' };
    const sourceFirst = { duration_source: 'turn', ...plain };
    for (const flavour of ['compact', 'general'] as const) {
      for (const e of [plain, withSource, sourceFirst]) {
        expect(parseLine(line(e)).ok).toBe(true);
        expect(eventLineRegex('tool_failure', Object.keys(e), flavour)?.test(line(e))).toBe(true);
      }
      const regex = eventLineRegex('tool_failure', Object.keys(withSource), flavour);
      expect(regex?.test(line({ ...withSource, duration_source: 'guessed' }))).toBe(false);
      expect(parseLine(line({ ...withSource, duration_source: 'guessed' })).ok).toBe(false);
      // An order that leaves out a required key has no regex at all.
      const { failure_kind: _kind, ...noKind } = plain;
      expect(eventLineRegex('tool_failure', Object.keys(noKind), flavour)).toBeNull();
    }
  });

  it('rejects what zod rejects: over-long strings, non-integers, out-of-set labels, a missing or extra key', () => {
    const call = ev.toolCall('s1', 'read', 't1');
    for (const flavour of ['compact', 'general'] as const) {
      const regex = eventLineRegex('tool_call', Object.keys(call), flavour);
      expect(regex?.test(line(call))).toBe(true);
      for (const bad of [{ tool_use_id: 'x'.repeat(129) }, { turn: 1.5 }, { source: 'elsewhere' }, { tool: 'bad name' }, { requested_tool: 'r'.repeat(65) }]) {
        expect(regex?.test(line({ ...call, ...bad }))).toBe(false);
      }
      const { turn: _turn, ...missing } = call;
      expect(regex?.test(line(missing))).toBe(false);
      expect(regex?.test(line({ ...call, extra: 1 }))).toBe(false);
    }
  });
});

describe('defense names (a label pattern, not a list)', () => {
  const lines = [
    ev.sessionStart('s1', ['denial_fuse', 'my_own_guard2']),
    ev.defenseTrigger('s1', 'my_own_guard2', { tool: 'bash' }),
    ev.defenseStats('s1', 'my_own_guard2', 3, 1),
  ];

  it('proves lines naming any defense the pattern allows, and no name it refuses', () => {
    for (const flavour of ['compact', 'general'] as const) {
      for (const e of lines) {
        const regex = eventLineRegex(e.event as EventName, Object.keys(e), flavour);
        expect(regex?.test(line(e))).toBe(true);
        for (const name of ['My_guard', '2guard', 'a'.repeat(65), 'bad-name', 'bad"name', '', 'guard\\n']) {
          const bad = e.event === 'session_start' ? { ...e, defenses_armed: [name] } : { ...e, defense: name };
          expect({ name, proven: regex?.test(line(bad)) }).toEqual({ name, proven: false });
          expect(parseLine(line(bad)).ok).toBe(false);
        }
      }
    }
  });

  it('loads them without rescue: the fast check proves every line, so no file is read twice', async () => {
    const file = join(tempDir(), 'defenses.jsonl');
    writeFileSync(file, Array.from({ length: 50 }, () => lines.map(line)).flat().join('\n') + '\n');
    const analysis = await analyzeTraces([file], { cache: { enabled: false } });
    expect(analysis.load).toMatchObject({ linesRead: 150, eventsUsed: 150, quarantined: [], rescued: 0, rereads: 0 });
  });
});

describe('loading', () => {
  it('quarantines exactly the lines parseLine rejects, with a mutation corpus', async () => {
    const lines = corpus();
    const path = join(tempDir(), 'corpus.jsonl');
    writeFileSync(path, lines.join('\n') + '\n');
    const { load } = await analyzeTraces([path]);
    const expectedBad = lines.flatMap((l, i) => (parseLine(l).ok ? [] : [i + 1]));
    const quarantined = load.quarantined.map((q) => q.line);
    const missed = expectedBad.filter((n) => !quarantined.includes(n)).map((n) => lines[n - 1]);
    const extra = quarantined.filter((n) => !expectedBad.includes(n)).map((n) => lines[n - 1]);
    expect({ missed, extra }).toEqual({ missed: [], extra: [] });
    expect(expectedBad.length).toBeGreaterThan(500);
    expect(load.eventsUsed).toBe(lines.length - expectedBad.length);
  });

  it('stores every accepted line with the values parseLine reads, however the lenient reader would have read it', async () => {
    const lines = corpus();
    const path = join(tempDir(), 'corpus.jsonl');
    writeFileSync(path, lines.join('\n') + '\n');
    const { duck } = await openTraces([path], { columns: 'all' });
    try {
      const rows = await duck.rows('SELECT * FROM events ORDER BY line_no');
      const accepted = lines.flatMap((text, i) => {
        const verdict = parseLine(text);
        return verdict.ok ? [{ line: i + 1, event: verdict.event as Record<string, unknown> }] : [];
      });
      expect(rows.map((r) => r.line_no)).toEqual(accepted.map((a) => a.line));
      const diffs: string[] = [];
      for (const [i, { line: n, event }] of accepted.entries()) {
        for (const [key, value] of Object.entries(event)) {
          const stored = rows[i]?.[key];
          if (JSON.stringify(stored) !== JSON.stringify(value)) diffs.push(`line ${n} ${key}: ${JSON.stringify(stored)} vs ${JSON.stringify(value)}`);
        }
      }
      expect(diffs).toEqual([]);
    } finally {
      duck.close();
    }
  });
});

describe('duplicate keys', () => {
  it('are read as zod (JSON.parse) reads them: the last value wins and the line is used', async () => {
    const text = line(ev.toolSuccess('s1', 'read', 't1', 7)).replace('"duration_ms":7', '"duration_ms":1,"duration_ms":7');
    expect(parseLine(text).ok).toBe(true);
    const path = join(tempDir(), 'dup.jsonl');
    writeFileSync(path, `${line(ev.toolCall('s1', 'read', 't1'))}\n${text}\n`);
    const analysis = await analyzeTraces([path]);
    // Only the duplicate is rescued: the first line taught its key order and is proven by it.
    expect(analysis.load).toMatchObject({ linesRead: 2, eventsUsed: 2, quarantined: [], rescued: 1 });
    const latency = analysis.reports.flatMap((r) => r.sections).find((s) => s.id === 'tool_latency');
    expect(latency?.rows[0]).toMatchObject({ tool: 'read', max_ms_of_executed: 7 });
  });
});

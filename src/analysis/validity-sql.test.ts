import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { parseLine } from '../events/parse-line.js';
import { analyzeTraces } from './analyze.js';
import { ev, line, tempDir } from '../../tests/analysis/fixtures.js';

/** Valid events of many kinds, then every field of each mutated in ways zod may or may not accept. */
function corpus(): string[] {
  const base = [
    ev.sessionStart('s1', ['denial_fuse'], { scenario: 'x' }),
    ev.sessionEnd('s1', 'passed'),
    ev.toolCall('s1', '<unknown>', 't1', { requested_tool: 'r'.repeat(64) }),
    ev.toolSuccess('s1', 'read', 't1', 1.5),
    ev.toolFailure('s1', 'bash', 't2', 'exception', 3),
    ev.permission('s1', 'bash', 't2', 'deny', 'deny_rule', false),
    ev.defenseTrigger('s1', 'denial_fuse', { tool: 'bash' }),
    ev.defenseStats('s1', 'denial_fuse', 3, 1),
    ev.modelRequest('s1'),
    ev.modelResponse('s1', 'null', { ttft_ms: 12.25 }),
    ev.modelError('s1', 'overloaded', false),
    ev.expectation('s1', 'e', true, 'd'),
  ];
  const out: string[] = [];
  const variants: unknown[] = [null, '1', 1, -1, 1.5, 5.0, 2 ** 53, 1e300, true, 'read', '', 'x'.repeat(129), '😀'.repeat(33), 'é'.repeat(64), 'e\u0301'.repeat(33), '👨‍👩‍👧'.repeat(13), [], ['read'], ['<unknown>', 'bad name'], {}, 'denial_fuse'];
  for (const e of base) {
    out.push(line(e));
    for (const key of Object.keys(e)) {
      const { [key]: _gone, ...without } = e;
      out.push(line(without));
      for (const v of variants) out.push(line({ ...e, [key]: v }));
    }
    out.push(line({ ...e, extra: 1 }));
    out.push(line(e).replace('"s1"', '"\\u0073\\u0031"')); // escapes in a string
  }
  out.push('[]', '"x"', '{}', 'null', '{"v":2}', '{"event":"nope","v":1}', '{"a":1}{"b":2}', ' ' + line(base[0] ?? {}) + ' ');
  return out;
}

describe('validity SQL', () => {
  it('agrees with parseLine on every line of a mutation corpus', async () => {
    const lines = corpus();
    const path = join(tempDir(), 'corpus.jsonl');
    writeFileSync(path, lines.join('\n') + '\n');
    const { load } = await analyzeTraces([path]);
    const expectedBad = lines.flatMap((l, i) => (parseLine(l).ok ? [] : [i + 1]));
    const quarantined = load.quarantined.map((q) => q.line);
    const missed = expectedBad.filter((n) => !quarantined.includes(n)).map((n) => lines[n - 1]);
    const extra = quarantined.filter((n) => !expectedBad.includes(n)).map((n) => lines[n - 1]);
    expect({ missed, extra }).toEqual({ missed: [], extra: [] });
    // rescued > 0 would mean the SQL rejected a line zod accepts (and the file was redone line by line)
    expect(load.rescued).toBe(0);
    expect(expectedBad.length).toBeGreaterThan(500);
    expect(load.eventsUsed).toBe(lines.length - expectedBad.length);
  });
});

describe('duplicate keys', () => {
  it('takes the exact path: zod (JSON.parse) keeps the last value, so the line is used with it', async () => {
    const text = line(ev.toolSuccess('s1', 'read', 't1', 7)).replace('"duration_ms":7', '"duration_ms":1,"duration_ms":7');
    expect(parseLine(text).ok).toBe(true);
    const path = join(tempDir(), 'dup.jsonl');
    writeFileSync(path, `${line(ev.toolCall('s1', 'read', 't1'))}\n${text}\n`);
    const analysis = await analyzeTraces([path]);
    expect(analysis.load).toMatchObject({ linesRead: 2, eventsUsed: 2, quarantined: [], rescued: 1 });
    const latency = analysis.reports.flatMap((r) => r.sections).find((s) => s.id === 'tool_latency');
    expect(latency?.rows[0]).toMatchObject({ tool: 'read', max_ms_of_executed: 7 });
  });
});

/**
 * A call in flight when its run was killed (its session has a session_start
 * and no session_end) has no result through no fault of the settlement
 * path: it is a cut-short call of a cut-short session, said as such, never
 * the "lost call" error. A call without a result in a session that ended is
 * still lost.
 */
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { analyzeTraces, openReportRows } from '../../src/analysis/analyze.js';
import { sessionViews } from '../../src/analysis/session-view.js';
import { findSection } from '../../src/analysis/report-model.js';
import { findings } from '../../src/report/findings.js';
import { toJsonReport } from '../../src/report/json.js';
import { renderMarkdown } from '../../src/report/markdown.js';
import { renderTerminal } from '../../src/report/terminal.js';
import { ev, line, tempDir, writeTrace } from './fixtures.js';

function trace(): string[] {
  return [
    // s1 ended: one call settled, one without a result (lost).
    ev.sessionStart('s1'), ev.toolCall('s1', 'read', 'a1'), ev.toolSuccess('s1', 'read', 'a1', 5), ev.toolCall('s1', 'read', 'a2'), ev.sessionEnd('s1', 'passed'),
    // s2 killed mid-turn: a read settled, a bash and a read still in flight.
    ev.sessionStart('s2'), ev.toolCall('s2', 'read', 'b1'), ev.toolSuccess('s2', 'read', 'b1', 5), ev.toolCall('s2', 'bash', 'b2'), ev.toolCall('s2', 'read', 'b3'),
  ].map(line);
}

describe('a call in flight when the run was killed', () => {
  it('is cut short, not lost: no lost-call error, a warning that says what happened', async () => {
    const dir = tempDir();
    writeTrace(dir, 't.jsonl', trace());
    const analysis = await analyzeTraces([join(dir, 't.jsonl')], { cache: { enabled: false } });
    const funnel = (tool: string) => findSection(analysis, 'tool_funnel')?.rows.find((r) => r.tool === tool);
    expect(funnel('read')).toMatchObject({ calls: 4, successes: 2, cut_short: 1, lost: 1 });
    expect(funnel('bash')).toMatchObject({ calls: 1, successes: 0, failures: 0, cut_short: 1, lost: 0 });
    expect(funnel('(all tools)')).toMatchObject({ calls: 5, cut_short: 2, lost: 1 });
    const texts = findings(analysis).map((f) => `${f.level}: ${f.text}`);
    expect(texts.filter((t) => t.includes('lost ='))).toEqual([expect.stringMatching(/^error: tool read: lost = 1/)]);
    expect(texts).toContainEqual(expect.stringMatching(/^warning: 2 tool calls cut short: in flight when the run was killed/));
    // The session view says which: the killed session's calls are cut short, the ended one's is lost.
    const rows = await openReportRows([join(dir, 't.jsonl')], { cache: { enabled: false } });
    const views = await sessionViews(rows.duck, { ids: ['s1', 's2'] }).finally(() => rows.close());
    const calls = views.flatMap((s) => s.calls.map((c) => [c.session_id, c.tool_use_id, c.result]));
    expect(calls).toEqual(expect.arrayContaining([['s1', 'a2', 'lost'], ['s2', 'b2', 'cut_short'], ['s2', 'b3', 'cut_short']]));
    expect(renderTerminal(analysis, { color: false, wrap: false })).toContain('2 cut short (in flight when the run was killed), 1 lost');
    expect(renderMarkdown(analysis)).toContain('2 tool calls cut short');
    expect(JSON.stringify(toJsonReport(analysis))).toContain('"cut_short":2');
  });

  it('in a run where every unfinished call was in a killed session: no error at all', async () => {
    const dir = tempDir();
    writeTrace(dir, 't.jsonl', trace().slice(5));
    const analysis = await analyzeTraces([join(dir, 't.jsonl')], { cache: { enabled: false } });
    expect(findings(analysis).filter((f) => f.level === 'error')).toEqual([]);
  });
});

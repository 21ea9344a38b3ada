import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { analyzeTraces } from '../../src/analysis/analyze.js';
import type { Analysis } from '../../src/analysis/report-model.js';
import { renderHtml, writeHtmlReport } from '../../src/report/html.js';
import { sessionAnchor } from '../../src/report/session-html.js';
import { ev, line, tempDir } from './fixtures.js';

const HOSTILE = ['<script>alert(1)</script>', '"><img src=x onerror=alert(2)>', '</svg><script>alert(3)</script>'];

function assertInert(html: string): void {
  expect(html).not.toMatch(/<script/i);
  expect(html).not.toMatch(/<img/i);
  expect(html).not.toMatch(/<iframe/i);
  // every </svg> closes a chart this renderer opened: none was smuggled in as text
  expect(html.match(/<\/svg>/g)?.length ?? 0).toBe(html.match(/<svg[\s>]/g)?.length ?? 0);
}

describe('HTML report escaping', () => {
  it('renders hostile tool names in tables and charts as inert text', async () => {
    const [a, b, c] = HOSTILE as [string, string, string];
    const inputs = [{ path: `/tmp/${b}.jsonl`, lines: 2, empty: false, run_ids: [a] }];
    const analysis: Analysis = {
      load: { files: [`/tmp/${b}.jsonl`], inputs, copiedRuns: [], linesRead: 2, eventsUsed: 1, rescued: 0, rereads: 0, quarantined: [{ file: `/tmp/${c}.jsonl`, line: 2, kind: 'unknown_event', reason: `unknown event "${a}"` }] },
      inputs,
      reports: [
        { id: 'tool_funnel', title: 'Tool funnel', sections: [{ id: 'tool_funnel', title: a, chartOnly: false, columns: ['tool', 'calls', 'successes', 'failures', 'lost'], rows: [{ tool: a, calls: 3, successes: 1, failures: 1, lost: 1 }, { tool: b, calls: 1, successes: 1, failures: 0, lost: 0 }] }] },
        { id: 'failure_kinds', title: 'Failure kinds', sections: [{ id: 'failure_kinds', title: 'kinds', chartOnly: false, columns: ['tool', 'phase', 'failure_kind', 'failures'], rows: [{ tool: c, phase: 'execution', failure_kind: b, failures: 2 }] }] },
        { id: 'tool_latency', title: 'Latency', sections: [
          { id: 'tool_latency', title: 'latency', chartOnly: false, columns: ['tool', 'p50_ms_of_executed', 'p95_ms_of_executed', 'p99_ms_of_executed'], rows: [{ tool: b, p50_ms_of_executed: 1, p95_ms_of_executed: 2, p99_ms_of_executed: 3 }] },
          { id: 'latency_histogram', title: 'hist', chartOnly: true, columns: ['tool', 'bin_from_ms', 'bin_to_ms', 'executed_calls'], rows: [{ tool: c, bin_from_ms: 1, bin_to_ms: 2, executed_calls: 5 }] },
        ] },
        { id: 'defense_report', title: 'Defenses', sections: [{ id: 'defenses', title: 'defenses', chartOnly: false, columns: ['defense', 'evaluations', 'triggers', 'triage'], rows: [{ defense: a, evaluations: 5, triggers: 1, triage: 'firing' }] }] },
      ],
    };
    const html = await renderHtml(analysis);
    assertInert(html);
    expect(html).toContain('&#60;script&#62;alert(1)&#60;/script&#62;');
    expect(html).toContain('&#34;&#62;&#60;img src=x onerror=alert(2)&#62;');
    // the charts were drawn (hostile labels did not make us drop them)
    expect(html.match(/<svg[\s>]/g)?.length).toBeGreaterThanOrEqual(4);
  });

  it('escapes hostile event names, expectation details and file names from a real trace', async () => {
    const dir = join(tempDir(), HOSTILE[1] as string);
    mkdirSync(dir, { recursive: true });
    const lines = [
      ev.sessionStart('s1'),
      { ...ev.toolCall('s1', 'read', 't1'), event: HOSTILE[0] },
      { ...ev.expectation('s1', HOSTILE[1] as string, false, HOSTILE.join(' ')), task_id: HOSTILE[0] },
      { ...ev.toolCall('s1', HOSTILE[2] as string, 't2') },
      ev.toolCall('s1', 'read', 't3'),
      ev.toolSuccess('s1', 'read', 't3', 5),
    ].map(line);
    const file = join(dir, `${HOSTILE[2]?.replaceAll('/', '_')}.jsonl`);
    writeFileSync(file, lines.join('\n') + '\n');
    const analysis = await analyzeTraces([file]);
    expect(analysis.load.quarantined.map((q) => q.line)).toEqual([2, 4]);
    const path = await writeHtmlReport(analysis, join(dir, 'out'));
    const html = readFileSync(path, 'utf8');
    assertInert(html);
    expect(html).toContain('unknown event &#34;&#60;script&#62;alert(1)&#60;/script&#62;&#34;');
    // the failed expectation reaches the report as a table row: task id, id and free-text detail, all as text;
    // its session and task link to the session's view (an id of our own, never the trace's text)
    const to = sessionAnchor('r1', 's1');
    expect(html).toContain(`<section class="session" id="${to}">`);
    const row = [
      `<td><a href="#${to}">s1</a></td>`,
      `<td><a href="#${to}">&#60;script&#62;alert(1)&#60;/script&#62;</a></td>`,
      '<td>&#34;&#62;&#60;img src=x onerror=alert(2)&#62;</td>',
      '<td>&#60;script&#62;alert(1)&#60;/script&#62; &#34;&#62;&#60;img src=x onerror=alert(2)&#62; &#60;/svg&#62;&#60;script&#62;alert(3)&#60;/script&#62;</td>',
    ];
    expect(html).toContain(`<tr>${row.join('')}</tr>`);
    // and in the per-id counts
    expect(html).toContain('<tr><td>&#34;&#62;&#60;img src=x onerror=alert(2)&#62;</td><td class="num">1</td><td class="num">1</td><td class="num bad">1</td>');
    // self-contained: nothing is fetched (the SVG xmlns URI is a name, not a fetch)
    expect(html).not.toMatch(/(src|href)\s*=\s*["']?https?:|<link\b|@import|url\(\s*['"]?https?:/i);
  });
});

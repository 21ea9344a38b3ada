/**
 * How the golden trace's report is laid out in each format: one-row
 * summaries as metric/value pairs, numbers right-aligned and labels
 * left-aligned by column type, failed expectations listed with their
 * detail, quarantine grouped by file in HTML and Markdown but `file:line:
 * reason` in the terminal and JSON.
 */
import { beforeAll, describe, expect, it } from 'vitest';
import { analyzeTraces } from '../../src/analysis/analyze.js';
import type { Analysis, Section } from '../../src/analysis/report-model.js';
import { parseSections, reportSql } from '../../src/analysis/reports.js';
import { renderHtml } from '../../src/report/html.js';
import { sessionAnchor } from '../../src/report/session-html.js';
import { toJsonReport } from '../../src/report/json.js';
import { renderMarkdown } from '../../src/report/markdown.js';
import { renderSectionTable, renderTerminal } from '../../src/report/terminal.js';
import { goldenLines } from './golden-trace.js';
import { tempDir, writeTrace } from './fixtures.js';

/** The highlighting the shipped expectations section declares (`-- flag:` in sql/expectations.sql). */
const EXPECTATION_FLAGS = parseSections(reportSql('expectations')).find((s) => s.id === 'expectations')?.flags ?? [];

let analysis: Analysis;
let file: string;
const n = goldenLines().length;

beforeAll(async () => {
  file = writeTrace(tempDir(), 'golden.jsonl', [...goldenLines(), 'not json', '{"v":1}']);
  analysis = await analyzeTraces([file]);
});

describe('terminal report', () => {
  it('leads with the header and the verdict: the problems, then a line of totals per area, before any table', () => {
    const text = renderTerminal(analysis, { color: false });
    const lines = text.split('\n');
    expect(lines[0]).toBe('faultline report · 1 run · 3 sessions · 48 events · 1 input');
    // a path is whole where lines are not wrapped (a pipe); on a terminal a long one wraps
    expect(renderTerminal(analysis, { color: false, wrap: false })).toContain(`input ${file}`);
    const verdictAt = lines.findIndex((l) => l.startsWith('Verdict'));
    // the failing task (task-s2) leads as a problem; the two shipped defenses no task reached are one warning
    expect(lines[verdictAt]).toBe('Verdict ✗ 4 problems, 3 warnings');
    expect(verdictAt).toBeLessThan(lines.findIndex((l) => l.startsWith('┌')));
    expect(text).toMatch(/^ {2}✗ tool bash: lost = 1 — /m);
    expect(text).toMatch(/^ {2}sessions {6}2 ended: 1 passed \(50\.0%\), 1 failed; 1 cut short$/m);
    expect(text).toMatch(/^ {2}defenses {6}1 unwired, 2 unreached, 10 unknown, 1 firing, 1 disarmed$/m);
    expect(text).toContain(`lines read = events used + lines quarantined: ${n + 2} = ${n} + 2`);
  });

  it('fits every line in 100 columns', () => {
    for (const l of renderTerminal(analysis, { color: false }).split('\n')) expect(l.length, l).toBeLessThanOrEqual(100);
  });

  it('shows a one-row summary as metric/value pairs, side by side, with the numbers right-aligned', () => {
    const text = renderTerminal(analysis, { color: false });
    expect(text).toMatch(/^ {2}sessions_started +3 {4}p50_turns_per_session +2$/m);
    expect(text).toMatch(/^ {2}pass_rate_of_ended_sessions +50\.0% {4}/m);
    expect(text).not.toContain('│ sessions_started │ sessions_ended │');
    // labels left, numbers right, whatever their position
    expect(text).toMatch(/│ bash +│ execution +│ exception +│ +1 │ +25\.0% │/);
  });

  it('wraps the headers of a wide table at underscores and says what it left out to fit', () => {
    const text = renderTerminal(analysis, { color: false });
    const funnel = text.slice(text.indexOf('Tool funnel per tool'), text.indexOf('Failure kinds per tool'));
    expect(funnel).toMatch(/│ tool +│ calls │ successes │ failures │ failures_ +│/);
    expect(funnel).toMatch(/│ +│ +│ +│ +│ +execution │/);
    expect(funnel).toContain('left out to fit 100 columns: exception_rate_of_executed, tool_error_rate_of_executed,\n  success_rate_of_calls, tool_errors, exceptions (--md, --html and --json have them)');
  });

  it('names rows whose every count is 0 on one line, by the label that tells them apart', () => {
    const text = renderTerminal(analysis, { color: false });
    expect(text).toContain("0 in every count (triage unknown, evidence no session's harness implements it):\n  dangerous_command_block, empty_args_retry_cap,");
    // a zero row of another class is never named with them: the disarmed one stays a row, with its triage
    expect(text).toMatch(/│ cut_tool_call_guard +│ +0 │ +0 │ +0 │ +0 │ disarmed +│/);
    expect(text).not.toMatch(/0 in every count[^\n]*(\n {2}[^\n]*)*cut_tool_call_guard/);
    expect(text).toContain('0 in every count: cascade_skipped, defense_blocked, hook_blocked, invalid_input, unavailable,\n  aborted');
    expect(text).not.toMatch(/│ aborted +│/);
  });

  it('puts free text that cannot fit a column under its row, whole and wrapped', () => {
    const detail = 'answer contains "config/app.toml"; answer was: ' + 'I could not find any configuration file in this workspace. '.repeat(4);
    const id = 'events.count(tool_call where tool = "<unknown>" and requested_tool = find_file) == 1';
    const table = renderSectionTable({ columns: ['session_id', 'task_id', 'id', 'detail'], rows: [{ session_id: '20261202T162200Z-1166c9.2', task_id: 'null-stop-reason-fails-closed', id, detail }] }, false);
    const lines = table.split('\n');
    for (const l of lines) expect(l.length, l).toBeLessThanOrEqual(100);
    expect(lines[3]).toMatch(/^│ 20261202T162200Z-1166c9\.2 │ null-stop-reason-fails-closed +│$/);
    expect(lines[4]).toMatch(new RegExp(`^│ ↳ id: ${id.replace(/[()"<>=]/g, '\\$&')} +│$`));
    const under = lines.slice(5, -1).map((l) => l.slice(1, -1).trim()).join(' ');
    expect(under).toBe(`↳ detail: ${detail.trim()}`);
  });

  it('turns rows into records when the table left for them is too narrow for their free text', () => {
    const detail = 'a long free-text detail that will not fit in a narrow column at all, '.repeat(3);
    const text = renderSectionTable({ columns: ['id', 'detail', 'more', 'again', 'last'], rows: [{ id: 'e1', detail, more: detail, again: detail, last: detail }] }, false);
    const lines = text.split('\n');
    expect(lines[0]).toBe('  e1');
    expect(lines[1]).toMatch(/^ {4}detail {2}a long free-text detail/);
    for (const l of lines) expect(l.length, l).toBeLessThanOrEqual(100);
  });

  it('lists failed expectations and quarantine as file:line: reason, and names empty sections together', () => {
    const text = renderTerminal(analysis, { color: false });
    expect(text).toContain('Failed expectations (by task, then session, in check order) — 3 in all');
    expect(text).toMatch(/│ s3 +│ task-s3 +│ e2 +│ no answer <b>at all<\/b> +│/);
    expect(text).toContain('Quarantine (2 lines)');
    const whole = renderTerminal(analysis, { color: false, wrap: false });
    expect(whole).toContain(`${file}:${n + 1}: not JSON`);
    expect(whole).toContain(`${file}:${n + 2}: `);
    expect(text).toMatch(/^Nothing to show: Executed calls not timed per call \(none\), MCP servers per server \(no events\),/m);
  });
});

describe('terminal report of a long section', () => {
  const section = (rows: Section['rows']): Analysis => ({
    load: { files: [], inputs: [], copiedRuns: [], linesRead: 0, eventsUsed: 0, rescued: 0, rereads: 0, quarantined: [] },
    inputs: [],
    reports: [{ id: 'expectations', title: 'Expectations', sections: [{ id: 'expectations', title: 'Expectations per id', chartOnly: false, flags: EXPECTATION_FLAGS, columns: ['id', 'tasks', 'checked', 'failed', 'fail_rate_of_checked'], rows }] }],
  });
  const ids = (k: number, failed: number) => Array.from({ length: k }, (_, i) => ({ id: `check-${i}`, tasks: 1, checked: 2, failed, fail_rate_of_checked: failed / 2 }));

  it('shows only the failing ids of a long expectations list, and how many more passed', () => {
    const text = renderTerminal(section([...ids(2, 1).map((r) => ({ ...r, id: `bad-${r.id}` })), ...ids(40, 0)]), { color: false });
    expect(text).toMatch(/│ bad-check-0 +│/);
    expect(text).toMatch(/│ bad-check-1 +│/);
    expect(text).not.toMatch(/│ check-0 +│/);
    expect(text).toContain('  … 40 more ids, none failing');
  });

  it('keeps every row of a short one', () => {
    const text = renderTerminal(section(ids(5, 0)), { color: false });
    for (let i = 0; i < 5; i++) expect(text).toMatch(new RegExp(`│ check-${i} +│`));
    expect(text).not.toContain('more ids');
  });
});

describe('Markdown report', () => {
  it('opens with the runs, the inputs and the verdict', () => {
    const md = renderMarkdown(analysis);
    expect(md).toContain('## faultline report\n\n1 run · 3 sessions · 48 events · 1 input\n');
    expect(md).toContain('| r1 | no suite named | provider mock · model m | 2023-11-14 22:13:20 UTC |');
    expect(md).toContain(`- input ${file.replaceAll('_', '\\_')}`);
    expect(md).toContain('### Verdict: ❌ 4 problems, 3 warnings');
    expect(md.indexOf('### Verdict')).toBeLessThan(md.indexOf('| tool | calls |'));
    expect(md).toContain('| defenses | 1 unwired, 2 unreached, 10 unknown, 1 firing, 1 disarmed |');
  });

  it('aligns numeric columns right in the rule row and transposes one-row summaries', () => {
    const md = renderMarkdown(analysis);
    expect(md).toContain('| tool | calls | successes | failures | failures\\_pre\\_execution |');
    expect(md).toMatch(/\| tool \| calls \|.*\n\| --- \| ---: \| ---: \| ---: \| ---: \| ---: \| ---: \| ---: \| ---: \| ---: \| ---: \| ---: \| ---: \| ---: \|\n/);
    expect(md).toMatch(/\| phase \| failure\\_kind \| failures \| rate\\_of\\_all\\_calls \|\n\| --- \| --- \| ---: \| ---: \|/);
    expect(md).toContain('| metric | value |\n| --- | ---: |\n| sessions\\_started | 3 |');
  });

  it('lists failed expectations with escaped detail and groups quarantine by file', () => {
    const md = renderMarkdown(analysis);
    expect(md).toContain('| s3 | task-s3 | e2 | no answer &#60;b&#62;at all&#60;/b&#62; |');
    expect(md).toContain(`### Quarantine (2 lines)\n\n- ${file.replaceAll('_', '\\_')}\n  - line ${n + 1}: not JSON`);
    expect(md.match(new RegExp(`line ${n + 2}: `, 'g'))).toHaveLength(1);
  });
});

describe('HTML report', () => {
  it('opens with the header, then the verdict, then a table of contents that links every heading', async () => {
    const html = await renderHtml(analysis);
    const at = (s: string) => html.indexOf(s);
    expect(at('<header>')).toBeLessThan(at('<section id="verdict"'));
    expect(at('<section id="verdict"')).toBeLessThan(at('<nav class="toc"'));
    expect(at('<nav class="toc"')).toBeLessThan(at('<table><thead><tr><th>tool</th>'));
    expect(html).toContain('<tr class="run"><th>run</th><td><code>r1</code> · 2023-11-14 22:13:20 UTC</td></tr>');
    expect(html).toContain('<tr><th>provider</th><td>mock</td></tr><tr><th>model</th><td>m</td></tr>');
    expect(html).toContain(`<tr id="inputs"><th>inputs</th><td><code>${file}</code> · ${n + 2} lines · run r1</td></tr>`);
    expect(html).toContain('<h2>Verdict: 4 problems, 3 warnings</h2>');
    expect(html).toContain('<span class="see">(README › Defense triage)</span>');
    const ids = [...html.matchAll(/<h[23] id="([^"]+)"/g)].map((m) => m[1]);
    const links = [...html.matchAll(/<a href="#([^"]+)"/g)].map((m) => m[1]);
    expect(ids.length).toBeGreaterThan(20);
    for (const id of ids) expect(links, id).toContain(id);
    for (const link of links) expect(html, link).toContain(`id="${link}"`);
    expect(html).toMatch(/<a href="#section-expectations" class="bad">Expectations per id \(3 failing\)<\/a>/);
  });

  it('names every input with its lines and runs when the analysis knows them', async () => {
    const inputs = [
      { path: '/t/a.jsonl', lines: 12, empty: false, run_ids: ['r1', 'r2'] },
      { path: '/t/empty.jsonl', lines: 0, empty: true, run_ids: [] },
    ];
    const html = await renderHtml({ ...analysis, inputs });
    expect(html).toContain('<tr id="inputs"><th>inputs</th><td><code>/t/a.jsonl</code> · 12 lines · runs r1, r2</td></tr>');
    expect(html).toContain('<tr><th></th><td><code>/t/empty.jsonl</code> · empty</td></tr>');
    expect(html).toContain('<tr><td><code>/t/a.jsonl</code></td><td class="num">12</td><td>r1, r2</td></tr>');
    expect(html).toContain('<tr><td><code>/t/empty.jsonl</code></td><td class="num warn">empty</td><td>—</td></tr>');
    const text = renderTerminal({ ...analysis, inputs }, { color: false });
    expect(text).toContain('input /t/a.jsonl · 12 lines · runs r1, r2\ninput /t/empty.jsonl · empty\n');
    expect(renderMarkdown({ ...analysis, inputs })).toContain('- input /t/empty.jsonl · empty');
    expect((toJsonReport({ ...analysis, inputs }) as { inputs: unknown }).inputs).toEqual(inputs);
  });

  it('puts failing rows first and folds the rest of a long table into a details element', async () => {
    const rows = [...Array.from({ length: 30 }, (_, i) => ({ id: `ok-${i}`, tasks: 1, checked: 1, failed: 0, fail_rate_of_checked: 0 })), { id: 'broken', tasks: 1, checked: 1, failed: 1, fail_rate_of_checked: 1 }];
    const long: Analysis = { ...analysis, reports: [{ id: 'expectations', title: 'Expectations', sections: [{ id: 'expectations', title: 'Expectations per id', chartOnly: false, flags: EXPECTATION_FLAGS, columns: ['id', 'tasks', 'checked', 'failed', 'fail_rate_of_checked'], rows }] }] };
    const html = await renderHtml(long);
    const [shown = '', folded = ''] = html.slice(html.indexOf('<h3 id="section-expectations"')).split('<details>');
    expect(shown.match(/<tr><td>/g)).toHaveLength(1);
    expect(shown).toContain('<tr><td>broken</td>');
    expect(folded).toMatch(/^<summary>30 more ids, none failing, none with failures \(failing = [^<]*\)<\/summary>/);
    expect(folded.match(/<tr><td>ok-/g)).toHaveLength(30);
  });

  it('puts each table in its own scroll box, lets long headers wrap at underscores and aligns by column type', async () => {
    const html = await renderHtml(analysis);
    expect(html.match(/<div class="table"><table>/g)?.length).toBe(html.match(/<table>/g)?.length);
    expect(html).toContain('.table{overflow-x:auto');
    expect(html).toContain('<th class="num">exception_<wbr>rate_<wbr>of_<wbr>executed</th>');
    expect(html).toContain('<th class="num">calls</th>'); // short names stay whole
    // an exception (a tool's own bug) needs a look
    expect(html).toContain('<tr><td>bash</td><td>execution</td><td class="warn">exception</td><td class="num">1</td><td class="num">25.0%</td></tr>');
    expect(html).toContain('<tr><td>sessions_started</td><td class="num">3</td></tr>');
    expect(html).toContain('<tr><td>sessions_without_end</td><td class="num warn">1</td></tr>');
  });

  it('lists failed expectations, escaped, and names each quarantined file once', async () => {
    const html = await renderHtml(analysis);
    const to = sessionAnchor('r1', 's3');
    expect(html).toContain(`<tr><td><a href="#${to}">s3</a></td><td><a href="#${to}">task-s3</a></td><td>e2</td><td>no answer &#60;b&#62;at all&#60;/b&#62;</td></tr>`);
    expect(html).toContain('3 expectations failed in 2 sessions (see Failed expectations)');
    const quarantine = html.slice(html.indexOf('<ul class="quarantine">'), html.indexOf('</body>'));
    expect(quarantine.split(file).length - 1).toBe(1);
    expect(quarantine).toContain(`<li>line ${n + 1}: not JSON`);
    expect(quarantine).toContain(`<li>line ${n + 2}: `);
  });
});

describe('JSON report', () => {
  it('keeps quarantine as file and line per entry, and states the failed-expectation total', () => {
    const json = toJsonReport(analysis) as { quarantine: { file: string; line: number }[]; reports: { expectations: { expectation_failures: { total_rows: number } } } };
    expect(json.quarantine.map((q) => [q.file, q.line])).toEqual([[file, n + 1], [file, n + 2]]);
    expect(json.reports.expectations.expectation_failures.total_rows).toBe(3);
  });
});

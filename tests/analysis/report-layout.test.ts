/**
 * How the golden trace's report is laid out in each format: one-row
 * summaries as metric/value pairs, numbers right-aligned and labels
 * left-aligned by column type, failed expectations listed with their
 * detail, quarantine grouped by file in HTML and Markdown but `file:line:
 * reason` in the terminal and JSON.
 */
import { beforeAll, describe, expect, it } from 'vitest';
import { analyzeTraces } from '../../src/analysis/analyze.js';
import type { Analysis } from '../../src/analysis/report-model.js';
import { renderHtml } from '../../src/report/html.js';
import { toJsonReport } from '../../src/report/json.js';
import { renderMarkdown } from '../../src/report/markdown.js';
import { renderSectionTable, renderTerminal } from '../../src/report/terminal.js';
import { goldenLines } from './golden-trace.js';
import { tempDir, writeTrace } from './fixtures.js';

let analysis: Analysis;
let file: string;
const n = goldenLines().length;

beforeAll(async () => {
  file = writeTrace(tempDir(), 'golden.jsonl', [...goldenLines(), 'not json', '{"v":1}']);
  analysis = await analyzeTraces([file]);
});

describe('terminal report', () => {
  it('shows the session summary as metric/value pairs with the numbers right-aligned', () => {
    const text = renderTerminal(analysis, { color: false });
    expect(text).toMatch(/│ metric +│ value │/);
    expect(text).toMatch(/│ sessions_started +│ +3 │/);
    expect(text).toMatch(/│ pass_rate_of_ended_sessions +│ +50\.0% │/);
    expect(text).not.toContain('│ sessions_started │ sessions_ended │');
    // labels left, numbers right, whatever their position
    expect(text).toMatch(/│ bash +│ execution +│ exception +│ +1 │ +25\.0% │/);
  });

  it('wraps the headers of a wide table at underscores', () => {
    const text = renderTerminal(analysis, { color: false });
    const funnel = text.slice(text.indexOf('Tool funnel per tool'), text.indexOf('Failure kinds per tool'));
    expect(funnel).toMatch(/│ tool +│ calls │ successes │ failures │ failures_ +│/);
    expect(funnel).toMatch(/│ +│ +│ +│ +│ +execution │/);
    for (const l of funnel.split('\n').filter((x) => /^[┌│└├]/.test(x))) expect(l.length, l).toBeLessThanOrEqual(120);
  });

  it('wraps free text and narrows it until the table fits 120 columns', () => {
    const detail = 'answer contains "config/app.toml"; answer was: ' + 'I could not find any configuration file in this workspace. '.repeat(4);
    const id = 'events.count(tool_call where tool = "<unknown>" and requested_tool = find_file) == 1';
    const table = renderSectionTable({ columns: ['session_id', 'task_id', 'id', 'detail'], rows: [{ session_id: '20261202T162200Z-1166c9.2', task_id: 'null-stop-reason-fails-closed', id, detail }] }, false);
    const lines = table.split('\n');
    for (const l of lines) expect(l.length, l).toBeLessThanOrEqual(120);
    const column = (i: number) => lines.slice(3, -1).map((l) => l.split('│')[i]?.trim()).filter((t) => t !== '').join(' ');
    expect(column(3)).toBe(id);
    expect(column(4)).toBe(detail.trim());
  });

  it('lists failed expectations and quarantine as file:line: reason', () => {
    const text = renderTerminal(analysis, { color: false });
    expect(text).toContain('Failed expectations (by task, then session, in check order) — 3 in all');
    expect(text).toMatch(/│ s3 +│ task-s3 +│ e2 +│ no answer <b>at all<\/b> +│/);
    expect(text).toContain('Quarantine (2 lines)');
    expect(text).toContain(`${file}:${n + 1}: not JSON`);
    expect(text).toContain(`${file}:${n + 2}: `);
  });
});

describe('Markdown report', () => {
  it('aligns numeric columns right in the rule row and transposes one-row summaries', () => {
    const md = renderMarkdown(analysis);
    expect(md).toContain('| tool | calls | successes | failures | failures\\_pre\\_execution |');
    expect(md).toMatch(/\| tool \| calls \|.*\n\| --- \| ---: \| ---: \| ---: \| ---: \| ---: \| ---: \| ---: \| ---: \| ---: \|\n/);
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
  it('puts each table in its own scroll box, lets long headers wrap at underscores and aligns by column type', async () => {
    const html = await renderHtml(analysis);
    expect(html.match(/<div class="table"><table>/g)?.length).toBe(html.match(/<table>/g)?.length);
    expect(html).toContain('.table{overflow-x:auto');
    expect(html).toContain('<th class="num">success_<wbr>rate_<wbr>of_<wbr>executed</th>');
    expect(html).toContain('<th class="num">calls</th>'); // short names stay whole
    expect(html).toContain('<tr><td>bash</td><td>execution</td><td>exception</td><td class="num">1</td><td class="num">25.0%</td></tr>');
    expect(html).toContain('<tr><td>sessions_started</td><td class="num">3</td></tr>');
    expect(html).toContain('<tr><td>sessions_without_end</td><td class="num warn">1</td></tr>');
  });

  it('lists failed expectations, escaped, and names each quarantined file once', async () => {
    const html = await renderHtml(analysis);
    expect(html).toContain('<tr><td>s3</td><td>task-s3</td><td>e2</td><td>no answer &#60;b&#62;at all&#60;/b&#62;</td></tr>');
    expect(html).toContain('3 expectations failed in 2 sessions (see Failed expectations)');
    const quarantine = html.slice(html.indexOf('<ul class="quarantine">'), html.indexOf('<h2>Files'));
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

/** Markdown that fits a CI step summary (GitHub-flavoured tables). */
import type { QuarantinedLine } from '../analysis/load.js';
import type { Analysis, Section } from '../analysis/report-model.js';
import { emptyText, sectionTitle, tableView } from './format.js';
import { findingText } from './findings.js';
import { countsText, dateRange, inputText, providerText, reportHeader, suitesText } from './header.js';
import { plural } from './plural.js';
import { QUARANTINE_SHOWN, quarantineByFile, quarantineRest, quarantineTitle } from './quarantine.js';
import { safeText } from './safe-text.js';
import { verdict } from './verdict.js';

/** Runs and inputs named in the header; the Runs section and --json have the rest. */
const HEADER_RUNS = 10;
const HEADER_INPUTS = 10;

/** Trace text must not become Markdown/HTML structure in a CI summary: HTML-significant characters as entities, Markdown ones backslash-escaped. */
export function mdEscape(text: string): string {
  return safeText(text)
    .replace(/[<>&"]/g, (ch) => `&#${ch.charCodeAt(0)};`)
    .replace(/[\\`*_[\]|]/g, (ch) => `\\${ch}`);
}

export function renderSectionMarkdown(section: Pick<Section, 'columns' | 'rows' | 'summary' | 'totalRows'>): string {
  if (section.rows.length === 0) return `_${emptyText(section)}_\n`;
  const view = tableView(section);
  const head = `| ${view.head.map(mdEscape).join(' | ')} |`;
  const rule = `| ${view.headAlign.map((a) => (a === 'right' ? '---:' : '---')).join(' | ')} |`;
  const body = view.rows.map((row) => `| ${row.map((cell) => mdEscape(cell.text)).join(' | ')} |`);
  return [head, rule, ...body].join('\n') + '\n';
}

/** Quarantined lines grouped by file: the file once, then `line N: reason`. */
export function quarantineMarkdown(quarantined: QuarantinedLine[], limit: number): string[] {
  const out: string[] = [];
  for (const group of quarantineByFile(quarantined, limit)) {
    out.push(`- ${mdEscape(group.file)}`);
    for (const q of group.lines) out.push(`  - line ${q.line}: ${mdEscape(q.reason)}`);
  }
  const rest = quarantineRest(quarantined, limit);
  if (rest !== null) out.push(`- ${rest}`);
  return out;
}

/** Inputs and runs: who ran what, when, read from which files. */
function headerMarkdown(analysis: Analysis): string[] {
  const h = reportHeader(analysis);
  const out = [countsText(h), ''];
  if (h.runs.length > 0) {
    out.push('| run | suites | provider and model | dates |', '| --- | --- | --- | --- |');
    for (const run of h.runs.slice(0, HEADER_RUNS)) {
      out.push(`| ${[run.runId, suitesText(run, 120), providerText(run), dateRange(run) ?? '—'].map(mdEscape).join(' | ')} |`);
    }
    if (h.runCount > HEADER_RUNS) out.push('', `… and ${plural(h.runCount - HEADER_RUNS, 'more run')} (see Runs)`);
    out.push('');
  }
  const inputs = h.inputs.map(inputText);
  for (const input of inputs.slice(0, HEADER_INPUTS)) out.push(`- input ${mdEscape(input)}`);
  if (inputs.length > HEADER_INPUTS) out.push(`- … and ${plural(inputs.length - HEADER_INPUTS, 'more input')} (all in --json)`);
  out.push('');
  return out;
}

function verdictMarkdown(analysis: Analysis): string[] {
  const v = verdict(analysis);
  const mark = v.errors > 0 ? '❌' : v.warnings > 0 ? '⚠️' : '✅';
  const out = [`### Verdict: ${mark} ${v.headline}`, ''];
  for (const f of v.findings) out.push(`- ${f.level === 'error' ? '❌' : '⚠️'} ${mdEscape(findingText(f))}`);
  if (v.findings.length > 0) out.push('');
  out.push('| area | totals |', '| --- | --- |');
  for (const fact of v.facts) out.push(`| ${mdEscape(fact.label)} | ${mdEscape(fact.text)} |`);
  out.push('');
  return out;
}

export function renderMarkdown(analysis: Analysis): string {
  const out: string[] = ['## faultline report', '', ...headerMarkdown(analysis), ...verdictMarkdown(analysis)];
  for (const report of analysis.reports) {
    for (const section of report.sections) {
      if (section.chartOnly || section.header) continue;
      out.push(`### ${mdEscape(sectionTitle(section))}`, '', renderSectionMarkdown(section));
    }
  }
  if (analysis.load.quarantined.length > 0) {
    out.push(`### ${quarantineTitle(analysis.load.quarantined)}`, '', ...quarantineMarkdown(analysis.load.quarantined, QUARANTINE_SHOWN), '');
  }
  return out.join('\n');
}

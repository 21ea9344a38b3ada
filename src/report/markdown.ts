/** Markdown that fits a CI step summary (GitHub-flavoured tables). */
import type { QuarantinedLine } from '../analysis/load.js';
import type { Analysis, Section } from '../analysis/report-model.js';
import { emptyText, sectionTitle, tableView } from './format.js';
import { findings, reconciliation } from './findings.js';
import { QUARANTINE_SHOWN, quarantineByFile, quarantineRest, quarantineTitle } from './quarantine.js';
import { safeText } from './terminal.js';
import { INPUTS_SHOWN, inputSummary, inputsRest, inputsTitle } from './input-header.js';

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

export function renderMarkdown(analysis: Analysis): string {
  const out: string[] = ['## faultline report', '', `${inputsTitle(analysis.inputs)}:`, ''];
  for (const input of analysis.inputs.slice(0, INPUTS_SHOWN)) out.push(`- ${mdEscape(input.path)}: ${mdEscape(inputSummary(input))}`);
  const moreInputs = inputsRest(analysis.inputs);
  if (moreInputs !== null) out.push(`- ${moreInputs}`);
  out.push('', `${reconciliation(analysis)}`, '');
  const found = findings(analysis);
  if (found.length > 0) {
    out.push('### Findings', '');
    for (const f of found) out.push(`- ${f.level === 'error' ? '❌' : '⚠️'} ${mdEscape(f.text)}`);
    out.push('');
  }
  for (const report of analysis.reports) {
    for (const section of report.sections) {
      if (section.chartOnly) continue;
      out.push(`### ${mdEscape(sectionTitle(section))}`, '', renderSectionMarkdown(section));
    }
  }
  if (analysis.load.quarantined.length > 0) {
    out.push(`### ${quarantineTitle(analysis.load.quarantined)}`, '', ...quarantineMarkdown(analysis.load.quarantined, QUARANTINE_SHOWN), '');
  }
  return out.join('\n');
}

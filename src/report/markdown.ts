/** Markdown that fits a CI step summary (GitHub-flavoured tables). */
import type { Analysis, Section } from '../analysis/report-model.js';
import { formatCell } from './format.js';
import { findings, reconciliation } from './findings.js';
import { QUARANTINE_SHOWN, quarantineLines, safeText } from './terminal.js';

/** Trace text must not become Markdown/HTML structure in a CI summary: HTML-significant characters as entities, Markdown ones backslash-escaped. */
export function mdEscape(text: string): string {
  return safeText(text)
    .replace(/[<>&"]/g, (ch) => `&#${ch.charCodeAt(0)};`)
    .replace(/[\\`*_[\]|]/g, (ch) => `\\${ch}`);
}

export function renderSectionMarkdown(section: Section): string {
  if (section.rows.length === 0) return '_no events_\n';
  const head = `| ${section.columns.map(mdEscape).join(' | ')} |`;
  const rule = `| ${section.columns.map(() => '---').join(' | ')} |`;
  const body = section.rows.map((row) => `| ${section.columns.map((c) => mdEscape(formatCell(c, row[c] ?? null))).join(' | ')} |`);
  return [head, rule, ...body].join('\n') + '\n';
}

export function renderMarkdown(analysis: Analysis): string {
  const out: string[] = ['## faultline report', '', `${reconciliation(analysis)}`, ''];
  const found = findings(analysis);
  if (found.length > 0) {
    out.push('### Findings', '');
    for (const f of found) out.push(`- ${f.level === 'error' ? '❌' : '⚠️'} ${mdEscape(f.text)}`);
    out.push('');
  }
  for (const report of analysis.reports) {
    for (const section of report.sections) {
      if (section.chartOnly) continue;
      out.push(`### ${mdEscape(section.title)}`, '', renderSectionMarkdown(section));
    }
  }
  if (analysis.load.quarantined.length > 0) {
    out.push(`### Quarantine (${analysis.load.quarantined.length} lines, first ${QUARANTINE_SHOWN} shown)`, '');
    for (const l of quarantineLines(analysis.load.quarantined, QUARANTINE_SHOWN)) out.push(`- ${mdEscape(l)}`);
    out.push('');
  }
  return out.join('\n');
}

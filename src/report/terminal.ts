/** Terminal tables (cli-table3); colour only when asked (TTY and no NO_COLOR). */
import Table from 'cli-table3';
import { createColors } from 'picocolors';
import type { Analysis, Section } from '../analysis/report-model.js';
import type { QuarantinedLine } from '../analysis/load.js';
import { formatCell } from './format.js';
import { findings, reconciliation } from './findings.js';

export const QUARANTINE_SHOWN = 20;

/** Control characters in trace-derived text could move the cursor or recolour the terminal. */
export function safeText(text: string): string {
  // eslint-disable-next-line no-control-regex
  return text.replace(/[\u0000-\u001f\u007f-\u009f]/g, (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`);
}

export function renderSectionTable(section: Section, color: boolean): string {
  const c = createColors(color);
  const table = new Table({ head: section.columns.map((h) => safeText(h)), style: { head: color ? ['cyan'] : [], border: color ? ['grey'] : [], compact: true } });
  for (const row of section.rows) {
    table.push(
      section.columns.map((col) => {
        const text = safeText(formatCell(col, row[col] ?? null));
        if (col === 'lost' && row[col] !== 0) return c.red(c.bold(text));
        if (col === 'triage' && row[col] === 'unwired') return c.red(text);
        if (col === 'triage' && row[col] === 'unreached') return c.yellow(text);
        if (col === 'triggers_match_stats' && row[col] === false) return c.red(text);
        return text;
      }),
    );
  }
  return table.toString();
}

export function quarantineLines(quarantined: QuarantinedLine[], limit: number): string[] {
  const lines = quarantined.slice(0, limit).map((q) => `${q.file}:${q.line}: ${q.reason}`);
  if (quarantined.length > limit) lines.push(`… and ${quarantined.length - limit} more (all of them in --json)`);
  return lines;
}

export function renderTerminal(analysis: Analysis, options: { color: boolean }): string {
  const c = createColors(options.color);
  const out: string[] = [c.bold('faultline report'), `files: ${analysis.load.files.length}`, reconciliation(analysis), ''];
  const found = findings(analysis);
  if (found.length > 0) {
    out.push(c.bold('Findings'));
    for (const f of found) out.push(`  ${f.level === 'error' ? c.red('✗') : c.yellow('!')} ${safeText(f.text)}`);
    out.push('');
  }
  for (const report of analysis.reports) {
    for (const section of report.sections) {
      if (section.chartOnly) continue;
      out.push(c.bold(safeText(section.title)));
      out.push(section.rows.length === 0 ? '  (no events)' : renderSectionTable(section, options.color), '');
    }
  }
  if (analysis.load.quarantined.length > 0) {
    out.push(c.bold(`Quarantine (${analysis.load.quarantined.length} lines, first ${QUARANTINE_SHOWN} shown)`));
    for (const l of quarantineLines(analysis.load.quarantined, QUARANTINE_SHOWN)) out.push(`  ${safeText(l)}`);
    out.push('');
  }
  out.push(reconciliation(analysis));
  return out.join('\n') + '\n';
}

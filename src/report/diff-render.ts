/** Renders a run-to-run diff as terminal tables, Markdown or JSON. */
import { createColors } from 'picocolors';
import type { DiffResult } from '../analysis/diff.js';
import { mdEscape, renderSectionMarkdown } from './markdown.js';
import { renderSectionTable, safeText } from './terminal.js';

/** `sides`: what each side read (diffSideLines), printed before any change. */
export function renderDiff(diff: DiffResult, options: { format: 'terminal' | 'md' | 'json'; color: boolean; sides?: string[][] }): string {
  if (options.format === 'json') return JSON.stringify(diff, null, 2) + '\n';
  const md = options.format === 'md';
  const c = createColors(options.color && !md);
  const out: string[] = [md ? '## faultline diff' : c.bold('faultline diff'), ''];
  for (const side of options.sides ?? []) {
    if (md) out.push(...side.map((l) => (l.startsWith('  ') ? `  - ${mdEscape(l.trim())}` : `- ${mdEscape(l)}`)));
    else out.push(...side.map(safeText));
  }
  if (options.sides) out.push('');
  out.push(md ? '### Regressions' : c.bold('Regressions'));
  if (diff.regressions.length === 0) out.push(md ? '_none_' : '  none');
  for (const r of diff.regressions) out.push(md ? `- ❌ ${mdEscape(r)}` : `  ${c.red('✗')} ${safeText(r)}`);
  out.push('');
  for (const t of diff.tables) {
    const section = { ...t, chartOnly: false };
    out.push(md ? `### ${mdEscape(t.title)}` : c.bold(t.title), md ? renderSectionMarkdown(section) : renderSectionTable(section, options.color), '');
  }
  return out.join('\n');
}

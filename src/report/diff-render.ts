/**
 * Renders a run-to-run diff as terminal tables, Markdown or JSON. The
 * terminal reads base → candidate in one cell and fits 100 columns
 * (diff-view.ts); Markdown and JSON keep every computed column.
 */
import { printJson } from './json-format.js';
import { createColors } from 'picocolors';
import type { DiffResult } from '../analysis/diff.js';
import { diffTaskLines, diffTaskTitle } from './diff-tasks.js';
import { diffView } from './diff-view.js';
import { fitTable } from './fit-table.js';
import { wrapText } from './format.js';
import { kvGrid } from './kv-grid.js';
import { mdEscape, renderSectionMarkdown } from './markdown.js';
import { safeText } from './safe-text.js';
import { TERMINAL_WIDTH } from './terminal.js';
import { textWidth } from './text-width.js';

function wrap(text: string, width: number, first = '', rest = first): string[] {
  return wrapText(safeText(text), width - Math.max(textWidth(first), textWidth(rest)), ' ').map((l, i) => (i === 0 ? first : rest) + l);
}

/** What each side read (diffSideLines), as Markdown list items: a side's first line, then its indented lines nested. */
function markdownSides(sides: string[][]): string[] {
  return sides.flatMap((side) => side.map((l) => (l.startsWith('  ') ? `  - ${mdEscape(l.trim())}` : `- ${mdEscape(l)}`)));
}

/** What each side read, wrapped to the terminal width: a side's first line, its indented lines under it. */
function terminalSides(sides: string[][], width: number): string[] {
  return sides.flatMap((side) => side.flatMap((l) => (l.startsWith('  ') ? wrap(l.trim(), width, '  ', '    ') : wrap(l, width, '', '    '))));
}

function renderMarkdownDiff(diff: DiffResult, sides: string[][] | undefined): string {
  const out: string[] = ['## faultline diff', ''];
  if (sides) out.push(...markdownSides(sides), '');
  out.push('### Regressions');
  if (diff.regressions.length === 0) out.push('_none_');
  for (const r of diff.regressions) out.push(`- ❌ ${mdEscape(r)}`);
  out.push('');
  const tasks = diffTaskLines(diff.tasks);
  out.push(`### ${mdEscape(diffTaskTitle(diff.tasks))}`, ...tasks.flips.map((f) => `- ⚠️ ${mdEscape(f)}`), ...tasks.lines.map((l) => `- ${mdEscape(l)}`), '');
  for (const t of diff.tables) out.push(`### ${mdEscape(t.title)}`, renderSectionMarkdown({ ...t }), '');
  return out.join('\n');
}

function renderTerminalDiff(diff: DiffResult, color: boolean, width: number, sides: string[][] | undefined, prose: number): string {
  const c = createColors(color);
  const out: string[] = [`${c.bold('faultline diff')} · cells read base → candidate`, ''];
  if (sides) out.push(...terminalSides(sides, prose), '');
  out.push(c.bold('Regressions'));
  if (diff.regressions.length === 0) out.push('  none');
  for (const r of diff.regressions) out.push(...wrap(r, prose, '  ✗ ', '    ').map((l, i) => (i === 0 ? `  ${c.red('✗')}${l.slice(3)}` : l)));
  out.push('');
  const tasks = diffTaskLines(diff.tasks);
  out.push(...wrap(diffTaskTitle(diff.tasks), prose, '', '  ').map((l) => c.bold(l)));
  for (const f of tasks.flips) out.push(...wrap(f, prose, '  ! ', '    ').map((l, i) => (i === 0 ? `  ${c.yellow('!')}${l.slice(3)}` : l)));
  for (const l of tasks.lines) out.push(...wrap(l, prose, '  ', '    '));
  out.push('');
  for (const t of diff.tables) {
    out.push(...wrap(t.title, prose, '', '  ').map((l) => c.bold(l)));
    const view = diffView(t);
    const notes = [...view.notes];
    if (view.table === null) out.push(...kvGrid(view.pairs, { width, indent: '  ', paint: (cell) => cell.text }));
    else if (view.table.rows.length > 0) {
      const fitted = fitTable(view.table, { width, color });
      out.push(fitted.text);
      notes.unshift(...fitted.notes);
    } else if (notes.length === 0) out.push('  (none)');
    for (const note of notes) out.push(...wrap(note, prose, '  ').map((l) => c.dim(l)));
    out.push('');
  }
  return out.join('\n');
}

/** `sides`: what each side read (diffSideLines), printed before any change. `wrap: false` (not a terminal): lines of text are left whole, tables fit `width`. */
export function renderDiff(diff: DiffResult, options: { format: 'terminal' | 'md' | 'json'; color: boolean; width?: number; sides?: string[][]; wrap?: boolean }): string {
  if (options.format === 'json') return printJson(diff);
  if (options.format === 'md') return renderMarkdownDiff(diff, options.sides);
  const width = options.width ?? TERMINAL_WIDTH;
  return renderTerminalDiff(diff, options.color, width, options.sides, options.wrap === false ? Infinity : width);
}

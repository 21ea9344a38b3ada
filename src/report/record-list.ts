/**
 * A table with free text too wide for the terminal, as one record per row:
 * the short cells on one line, each free-text cell under it, named and
 * wrapped. Nothing is cut and nothing is left out.
 *
 *   s2 · task_id task-s2
 *     id      e3
 *     detail  answer contains "42"; answer was: I could not find any
 *             configuration file in this workspace.
 */
import { wrapText, type Flag, type TableView } from './format.js';
import { padEndWidth, textWidth } from './text-width.js';

export function recordList(view: TableView, texts: string[][], prose: readonly number[], options: { width: number; keep: readonly number[]; paint: (text: string, flag: Flag) => string }): string {
  const short = options.keep.filter((i) => !prose.includes(i));
  const long = options.keep.filter((i) => prose.includes(i));
  const label = Math.max(0, ...long.map((i) => textWidth(view.head[i] ?? '')));
  const out: string[] = [];
  view.rows.forEach((row, r) => {
    // the first cell names the row; the others say what they are
    const cells = short.map((i, k) => options.paint(k === 0 ? texts[r]?.[i] || '—' : `${view.head[i]} ${texts[r]?.[i] || '—'}`, row[i]?.flag ?? null));
    if (cells.length > 0) out.push(...wrapText(cells.join(' · '), options.width - 2, ' ').map((l) => `  ${l}`));
    for (const i of long) {
      const indent = 4 + label + 2;
      const lines = wrapText(texts[r]?.[i] ?? '', Math.max(16, options.width - indent), ' ');
      lines.forEach((line, k) => {
        const head = k === 0 ? `    ${padEndWidth(view.head[i] ?? '', label)}  ` : ' '.repeat(indent);
        out.push(head + options.paint(line, row[i]?.flag ?? null));
      });
    }
  });
  return out.join('\n');
}

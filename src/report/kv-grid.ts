/**
 * A one-row summary in the terminal: metric/value pairs in as many columns
 * as fit the width (filled top to bottom), names left, values right-aligned,
 * no box: sixteen metrics take eight lines, not twenty.
 */
import { wrapText, type ViewCell } from './format.js';
import { padEndWidth, textWidth } from './text-width.js';

export interface Pair {
  name: string;
  value: ViewCell;
}

/** Space between two grid columns. */
const GAP = '    ';
/** Columns of pairs at most. */
const MAX_COLUMNS = 3;

/** The lines of the grid, each `indent` + pairs; `paint` colours a value by its flag. */
export function kvGrid(pairs: readonly Pair[], options: { width: number; indent: string; paint: (cell: ViewCell) => string }): string[] {
  if (pairs.length === 0) return [];
  const room = options.width - options.indent.length;
  for (let columns = Math.min(MAX_COLUMNS, pairs.length); columns >= 1; columns--) {
    const rows = Math.ceil(pairs.length / columns);
    const groups = Array.from({ length: columns }, (_, k) => pairs.slice(k * rows, (k + 1) * rows)).filter((g) => g.length > 0);
    const names = groups.map((g) => Math.max(...g.map((p) => textWidth(p.name))));
    const values = groups.map((g) => Math.max(...g.map((p) => textWidth(p.value.text))));
    const width = groups.reduce((w, _, k) => w + (names[k] ?? 0) + 2 + (values[k] ?? 0), 0) + (groups.length - 1) * GAP.length;
    if (width > room) continue;
    const out: string[] = [];
    for (let r = 0; r < rows; r++) {
      const cells = groups.flatMap((g, k) => {
        const pair = g[r];
        if (!pair) return [];
        const pad = ' '.repeat(Math.max(0, (values[k] ?? 0) - textWidth(pair.value.text)));
        const value = pair.value.align === 'left' ? `${options.paint(pair.value)}${pad}` : `${pad}${options.paint(pair.value)}`;
        return [`${padEndWidth(pair.name, names[k] ?? 0)}  ${value}`];
      });
      out.push((options.indent + cells.join(GAP)).trimEnd());
    }
    return out;
  }
  return longValues(pairs, options, Math.max(...pairs.map((p) => textWidth(p.name))));
}

/** One pair a line, a value too long for the line wrapped under itself. */
function longValues(pairs: readonly Pair[], options: { width: number; indent: string; paint: (cell: ViewCell) => string }, nameWidth: number): string[] {
  const name = Math.min(nameWidth, Math.floor((options.width - options.indent.length) / 2));
  const room = Math.max(8, options.width - options.indent.length - name - 2);
  const out: string[] = [];
  for (const pair of pairs) {
    const lines = wrapText(pair.value.text, room, ' ,');
    lines.forEach((line, i) => {
      const label = i === 0 ? padEndWidth(pair.name, name) : ''.padEnd(name);
      out.push(`${options.indent}${label}  ${options.paint({ ...pair.value, text: line })}`.trimEnd());
    });
  }
  return out;
}

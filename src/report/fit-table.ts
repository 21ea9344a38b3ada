/**
 * A terminal table (cli-table3) laid out to fit a width, in steps that lose
 * as little as possible, each said in a note under the table:
 *
 * 1. headers wrap after their underscores (never inside a word);
 * 2. rate and share columns are left out (their counts stay; --md, --html
 *    and --json have them);
 * 3. columns with one value in every row (3+ rows) are lifted into a note,
 *    widest first, as many as it takes;
 * 4. free-text columns wrap narrower, down to MIN_TEXT_WIDTH, or when that
 *    cannot fit, go under their row across the table (`↳ evidence: …`), or
 *    for a table too narrow for that, each row becomes a record
 *    (record-list.ts);
 * 5. the rightmost columns with nothing flagged are left out.
 *
 * A column with a flagged cell is never lifted or left out.
 */
import Table from 'cli-table3';
import { createColors } from 'picocolors';
import { isRateColumn, wrapText, type Flag, type TableView } from './format.js';
import { recordList } from './record-list.js';
import { safeText } from './safe-text.js';
import { textWidth } from './text-width.js';

/** Free text (expectation details, long ids) wraps at this width inside its cell, or narrower to fit. */
const TEXT_WIDTH = 60;
/** A text column is never narrowed below this. */
const MIN_TEXT_WIDTH = 24;
/** A table narrower than this does not carry free text under its rows: the rows become records. */
const MIN_UNDER_WIDTH = 56;
/** Fewest rows for which a column with one value is lifted into a note. */
const LIFT_ROWS = 3;

export interface FittedTable {
  text: string;
  /** What the fit changed: lifted values, columns left out. */
  notes: string[];
}

const widest = (lines: string[]): number => lines.reduce((w, l) => Math.max(w, textWidth(l)), 0);

/** A header wrapped at underscores to `width`, or to its longest word if that is wider. */
function wrapHead(h: string, width: number): string[] {
  return wrapText(h, Math.max(width, widest(h.split(/(?<=_)/))), '_');
}

interface Layout {
  keep: number[];
  /** Free-text columns shown under each row, across the table, instead of as columns. */
  under?: number[];
  wrapHeads: boolean;
  /** Wrap width per text column, when narrower than TEXT_WIDTH. */
  narrow: Map<number, number>;
}

interface Measured {
  width: number;
  texts: string[][];
  head: Map<number, string[]>;
  cells: Map<number, string[][]>;
  cellWidth: Map<number, number>;
}

function measure(view: TableView, texts: string[][], layout: Layout): Measured {
  const head = new Map<number, string[]>();
  const cells = new Map<number, string[][]>();
  const cellWidth = new Map<number, number>();
  let width = 1;
  for (const i of layout.keep) {
    const lines = texts.map((row) => wrapText(row[i] ?? '', layout.narrow.get(i) ?? TEXT_WIDTH, ' '));
    const w = widest(lines.flat());
    const name = safeText(view.head[i] ?? '');
    const h = layout.wrapHeads ? wrapHead(name, w) : [name];
    cells.set(i, lines);
    cellWidth.set(i, w);
    head.set(i, h);
    width += Math.max(w, widest(h)) + 3;
  }
  return { width, texts, head, cells, cellWidth };
}

/** The natural width of a table (headers wrapped at underscores), before anything is left out. */
export function tableWidth(view: TableView): number {
  const texts = view.rows.map((row) => row.map((cell) => safeText(cell.text)));
  return measure(view, texts, { keep: view.head.map((_, i) => i), wrapHeads: true, narrow: new Map() }).width;
}

export function fitTable(view: TableView, options: { width: number; color: boolean }): FittedTable {
  const max = options.width;
  const texts = view.rows.map((row) => row.map((cell) => safeText(cell.text)));
  const flagged = (i: number) => view.rows.some((row) => row[i]?.flag);
  const layout: Layout = { keep: view.head.map((_, i) => i), wrapHeads: false, narrow: new Map() };
  const notes: string[] = [];
  const leftOut: string[] = [];
  let m = measure(view, texts, layout);
  const refit = () => (m = measure(view, texts, layout)).width > max;

  if (m.width > max) layout.wrapHeads = true;
  if (refit()) {
    const rates = layout.keep.slice(1).filter((i) => isRateColumn(view.head[i] ?? '') && !flagged(i));
    layout.keep = layout.keep.filter((i) => !rates.includes(i));
    leftOut.push(...rates.map((i) => view.head[i] ?? ''));
  }
  // columns with one value in every row, widest first, only as many as it takes
  const lifted: number[] = [];
  const constant = layout.keep.slice(1).filter((i) => view.rows.length >= LIFT_ROWS && !flagged(i) && texts.every((row) => row[i] === texts[0]?.[i]));
  const colWidth = (i: number) => Math.max(m.cellWidth.get(i) ?? 0, widest(m.head.get(i) ?? []));
  for (const i of [...constant].sort((a, b) => colWidth(b) - colWidth(a) || b - a)) {
    if (!refit()) break;
    layout.keep = layout.keep.filter((k) => k !== i);
    lifted.push(i);
  }
  refit();
  if (lifted.length > 0) notes.push(`every row: ${lifted.sort((a, b) => a - b).map((i) => `${view.head[i]} ${texts[0]?.[i] === '' ? '(empty)' : texts[0]?.[i]}`).join(', ')}`);
  // free text that cannot fit narrowed to MIN_TEXT_WIDTH goes under its row, across the table (or, for a narrow table, a record per row)
  const prose = layout.keep.filter((i) => view.headAlign[i] === 'left' && (m.cellWidth.get(i) ?? 0) > MIN_TEXT_WIDTH && texts.some((row) => (row[i] ?? '').includes(' ')));
  const narrowest = [...m.cellWidth].reduce((w, [i, cw]) => w + Math.max(prose.includes(i) ? MIN_TEXT_WIDTH : cw, widest(m.head.get(i) ?? [])) + 3, 1);
  if (m.width > max && prose.length > 0 && narrowest > max) {
    const keep = layout.keep;
    layout.keep = keep.filter((i) => !prose.includes(i));
    layout.under = prose;
    if (refit() || m.width < MIN_UNDER_WIDTH) {
      if (leftOut.length > 0) notes.push(`left out to fit ${max} columns: ${leftOut.join(', ')} (--md, --html and --json have them)`);
      return { text: recordList(view, texts, prose, { width: max, keep, paint: painter(options.color) }), notes };
    }
  }
  // narrow the widest text column (to the next widest, at least MIN_TEXT_WIDTH) until it fits
  while (refit()) {
    const text = layout.keep.filter((i) => view.headAlign[i] === 'left' && (m.cellWidth.get(i) ?? 0) > MIN_TEXT_WIDTH);
    if (text.length === 0) break;
    const i = text.reduce((a, b) => ((m.cellWidth.get(b) ?? 0) > (m.cellWidth.get(a) ?? 0) ? b : a));
    const next = Math.max(MIN_TEXT_WIDTH, ...text.filter((j) => j !== i).map((j) => m.cellWidth.get(j) ?? 0));
    const width = m.cellWidth.get(i) ?? 0;
    layout.narrow.set(i, Math.min(width - 1, Math.max(next, width - (m.width - max))));
  }
  while (m.width > max) {
    const last = [...layout.keep].reverse().find((i) => i !== layout.keep[0] && !flagged(i));
    if (last === undefined) break;
    layout.keep = layout.keep.filter((i) => i !== last);
    leftOut.push(view.head[last] ?? '');
    refit();
  }
  if (leftOut.length > 0) notes.push(`left out to fit ${max} columns: ${leftOut.join(', ')} (--md, --html and --json have them)`);
  return { text: render(view, m, layout, options.color, max), notes };
}

function painter(color: boolean): (text: string, flag: Flag) => string {
  const c = createColors(color);
  return (text, flag) => (flag === 'bad' ? c.red(c.bold(text)) : flag === 'warn' ? c.yellow(text) : text);
}

function render(view: TableView, m: Measured, layout: Layout, color: boolean, max: number): string {
  const paint = painter(color);
  // a table with free text under its rows widens its last column to give that text room (up to the width)
  const longest = Math.max(0, ...(layout.under ?? []).flatMap((i) => m.texts.map((row) => textWidth(`↳ ${view.head[i]}: ${row[i] ?? ''}`) + 4)));
  const extra = Math.max(0, Math.min(max, longest) - m.width);
  const widths = layout.keep.map((i, k) => Math.max(m.cellWidth.get(i) ?? 0, widest(m.head.get(i) ?? [])) + 2 + (k === layout.keep.length - 1 ? extra : 0));
  const table = new Table({
    colWidths: widths,
    head: layout.keep.map((i) => (m.head.get(i) ?? []).join('\n')),
    colAligns: layout.keep.map((i) => view.headAlign[i] ?? 'left'),
    style: { head: color ? ['cyan'] : [], border: color ? ['grey'] : [], compact: true },
  });
  const inner = m.width + extra - 4;
  view.rows.forEach((row, r) => {
    table.push(
      layout.keep.map((i) => {
        const cell = row[i];
        return { content: (m.cells.get(i)?.[r] ?? []).map((l) => paint(l, cell?.flag ?? null)).join('\n'), hAlign: cell?.align ?? 'left' };
      }),
    );
    // free text under its row: `↳ evidence: …`, wrapped to the table
    const under = (layout.under ?? []).filter((i) => !['', '—'].includes(m.texts[r]?.[i] ?? ''));
    if (under.length > 0) {
      const lines = under.flatMap((i) => wrapText(`↳ ${view.head[i]}: ${m.texts[r]?.[i]}`, inner - 2, ' ').map((l, k) => paint(k === 0 ? l : `  ${l}`, row[i]?.flag ?? null)));
      table.push([{ colSpan: layout.keep.length, content: lines.join('\n') }]);
    }
  });
  return table.toString();
}

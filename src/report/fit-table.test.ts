import { describe, expect, it } from 'vitest';
import { fitTable } from './fit-table.js';
import { tableView } from './format.js';

const rows = Array.from({ length: 4 }, (_, i) => ({
  name: `item-${i}`,
  a_long_constant_column_name: 'same',
  short_constant: 'x',
  count_of_things: i,
  lost: 0,
  rate_of_things: i / 10,
}));
const columns = Object.keys(rows[0] ?? {});

describe('fitTable', () => {
  it('leaves a table that fits alone', () => {
    const fitted = fitTable(tableView({ columns, rows }), { width: 200, color: false });
    expect(fitted.notes).toEqual([]);
    expect(fitted.text).toContain('a_long_constant_column_name');
  });

  it('leaves out rates first, then lifts one-value columns widest first, only as many as it takes', () => {
    const fitted = fitTable(tableView({ columns, rows }), { width: 45, color: false });
    for (const l of fitted.text.split('\n')) expect(l.length, l).toBeLessThanOrEqual(45);
    expect(fitted.notes).toEqual(['every row: a_long_constant_column_name same', 'left out to fit 45 columns: rate_of_things (--md, --html and --json have them)']);
    expect(fitted.text).toMatch(/│ short_ +│/); // the narrower one-value column stays
  });

  it('never lifts or leaves out a column with a flagged cell', () => {
    const flagged = rows.map((r) => ({ ...r, lost: 1 }));
    const fitted = fitTable(tableView({ columns, rows: flagged }), { width: 40, color: false });
    expect(fitted.text).toMatch(/│ +lost │/);
    expect(fitted.notes.join(' ')).not.toMatch(/\blost\b/);
  });
});

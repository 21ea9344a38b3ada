/** Highlighting is declared by the section (`-- flag:` under its marker), never by a column's name across sections. */
import { describe, expect, it } from 'vitest';
import { parseSections, REPORTS, reportSql } from '../../src/analysis/reports.js';
import { parseFlag } from '../../src/analysis/section-flags.js';
import { cellFlag, tableView } from '../../src/report/format.js';
import { planRows } from '../../src/report/row-plan.js';

const SQL = `-- section: calls | Calls
-- flag: lost != 0 bad
-- flag: failure_kind = 'exception' warn when failures > 0
-- budget: 9
SELECT 1 AS lost;

-- section: other | Other
SELECT 1 AS lost;
`;

describe('section flags', () => {
  it('are read from the lines under a section marker, apart from its statement', () => {
    const [calls, other] = parseSections(SQL);
    expect(calls?.flags).toEqual([
      { column: 'lost', op: '!=', value: 0, level: 'bad' },
      { column: 'failure_kind', op: '=', value: 'exception', level: 'warn', when: { column: 'failures', op: '>', value: 0 } },
    ]);
    expect(calls?.budget).toBe(9);
    expect(calls?.sql).toBe('SELECT 1 AS lost');
    expect(other).toMatchObject({ flags: [], budget: null, sql: 'SELECT 1 AS lost' });
  });

  it('colour a column only in the section that declares them', () => {
    const [calls, other] = parseSections(SQL);
    const rows = [{ lost: 2 }, { lost: 0 }];
    expect(tableView({ columns: ['lost'], rows, flags: calls!.flags }).rows.map((r) => r[0]?.flag)).toEqual(['bad', null]);
    expect(tableView({ columns: ['lost'], rows, flags: other!.flags }).rows.map((r) => r[0]?.flag)).toEqual([null, null]);
    // and only a flagged row is "failing", so only it is lifted to the top of a cut section
    expect(planRows({ id: 'x', columns: ['lost'], rows: [{ lost: 0 }, { lost: 2 }], flags: calls!.flags }).shown[0]).toEqual({ lost: 2 });
  });

  it('judge a cell against the cells around it when the flag says `when`', () => {
    const [calls] = parseSections(SQL);
    expect(cellFlag('failure_kind', 'exception', { failures: 3 }, calls!.flags)).toBe('warn');
    expect(cellFlag('failure_kind', 'exception', { failures: 0 }, calls!.flags)).toBeNull();
    expect(cellFlag('failure_kind', 'tool_error', { failures: 3 }, calls!.flags)).toBeNull();
  });

  it('refuse a flag line they cannot read, naming the section', () => {
    expect(() => parseFlag('lost is big', 'calls')).toThrow(/section calls: flag "lost is big" is not/);
    expect(() => parseSections('-- section: s | S\n-- budget: lots\nSELECT 1')).toThrow(/section s: budget "lots"/);
  });

  it('in the shipped reports name only columns their section returns (a renamed column leaves no dead flag)', () => {
    for (const r of REPORTS) {
      for (const s of parseSections(reportSql(r.id))) {
        for (const f of s.flags) expect(s.sql, `${r.id}/${s.id} flags ${f.column}`).toMatch(new RegExp(`\\b${f.column}\\b`));
      }
    }
  });
});

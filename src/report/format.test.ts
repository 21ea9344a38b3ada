import { describe, expect, it } from 'vitest';
import { parseSections, reportSql, type ReportId } from '../analysis/reports.js';
import { plural, sectionTitle, tableView, wrapText } from './format.js';

/** The flags a shipped section declares (`-- flag:` in its SQL file). */
const flagsOf = (report: ReportId, section: string) => parseSections(reportSql(report)).find((s) => s.id === section)?.flags ?? [];

describe('tableView', () => {
  it('aligns by what a column holds, not by its position: numbers right, labels and yes/no left', () => {
    const view = tableView({
      columns: ['calls', 'tool', 'phase', 'needed_prompt', 'rate_of_calls'],
      rows: [
        { calls: 3, tool: 'read', phase: 'execution', needed_prompt: true, rate_of_calls: 0.5 },
        { calls: 1, tool: 'bash', phase: 'pre_execution', needed_prompt: false, rate_of_calls: null },
      ],
    });
    expect(view.headAlign).toEqual(['right', 'left', 'left', 'left', 'right']);
    expect(view.rows[1]?.map((c) => [c.text, c.align])).toEqual([['1', 'right'], ['bash', 'left'], ['pre_execution', 'left'], ['no', 'left'], ['—', 'right']]);
  });

  it('lays a one-row summary out as metric/value pairs, each value formatted by its own metric', () => {
    const view = tableView({ summary: true, flags: flagsOf('sessions', 'session_summary'), columns: ['sessions_started', 'pass_rate_of_ended_sessions', 'sessions_without_end'], rows: [{ sessions_started: 3, pass_rate_of_ended_sessions: 0.5, sessions_without_end: 1 }] });
    expect(view.head).toEqual(['metric', 'value']);
    expect(view.headAlign).toEqual(['left', 'right']);
    expect(view.rows.map((r) => r.map((c) => c.text))).toEqual([['sessions_started', '3'], ['pass_rate_of_ended_sessions', '50.0%'], ['sessions_without_end', '1']]);
    expect(view.rows[2]?.[1]?.flag).toBe('warn');
  });

  it('keeps a summary with more than one row (or none) as a plain table', () => {
    expect(tableView({ summary: true, columns: ['a'], rows: [{ a: 1 }, { a: 2 }] }).head).toEqual(['a']);
  });

  it('flags the cells a reader must not miss, as their sections declare', () => {
    const flags = [...flagsOf('tool_funnel', 'tool_funnel'), ...flagsOf('defense_report', 'defenses'), ...flagsOf('expectations', 'expectations')];
    const rows = [{ lost: 1, triage: 'unwired', failed: 2 }, { lost: 0, triage: 'unreached', failed: 0 }];
    expect(tableView({ columns: ['lost', 'triage', 'failed'], rows, flags }).rows.map((r) => r.map((c) => c.flag))).toEqual([['bad', 'bad', 'bad'], [null, 'warn', null]]);
    // the same columns in a section that declares no flags are not coloured
    expect(tableView({ columns: ['lost', 'triage', 'failed'], rows }).rows.flat().map((c) => c.flag)).toEqual(Array(6).fill(null));
  });

  it('reads any triage class from the data: only firing and disarmed pass unflagged, a class it has never seen needs a look', () => {
    const rows = ['firing', 'disarmed', 'unwired', 'unreached', 'unknown', 'some_future_class'].map((triage) => ({ triage, sessions_armed: 2 }));
    const flags = flagsOf('defense_report', 'defenses');
    expect(tableView({ columns: ['triage'], rows, flags }).rows.map((r) => r[0]?.flag)).toEqual([null, null, 'bad', 'warn', 'bad', 'warn']);
    // a defense no session armed asks nothing of anyone, whatever its class, unless its wiring is broken
    const unarmed = rows.map((r) => ({ ...r, sessions_armed: 0 }));
    expect(tableView({ columns: ['triage'], rows: unarmed, flags }).rows.map((r) => r[0]?.flag)).toEqual([null, null, 'bad', null, null, null]);
  });
});

describe('wrapText', () => {
  it('breaks after the break characters, keeping them at the line end', () => {
    expect(wrapText('trigger_rate_of_armed_sessions', 10, '_')).toEqual(['trigger_', 'rate_of_', 'armed_', 'sessions']);
    expect(wrapText('answer was: I could not find it', 12, ' ')).toEqual(['answer was:', 'I could not', 'find it']);
  });

  it('cuts a piece longer than the width and leaves short text alone', () => {
    expect(wrapText('abcdefghij klm', 4, ' ')).toEqual(['abcd', 'efgh', 'ij', 'klm']);
    expect(wrapText('short', 40, ' ')).toEqual(['short']);
    expect(wrapText('', 40, ' ')).toEqual(['']);
  });
});

describe('counts in words', () => {
  it('pluralises by the number', () => {
    expect([plural(0, 'line'), plural(1, 'line'), plural(2, 'session')]).toEqual(['0 lines', '1 line', '2 sessions']);
  });

  it('states the total of a capped section', () => {
    const rows = [{ a: 1 }, { a: 2 }];
    expect(sectionTitle({ title: 'Failed', rows, totalRows: 9 })).toBe('Failed — first 2 of 9 shown');
    expect(sectionTitle({ title: 'Failed', rows, totalRows: 2 })).toBe('Failed — 2 in all');
    expect(sectionTitle({ title: 'Failed', rows: [], totalRows: 0 })).toBe('Failed');
    expect(sectionTitle({ title: 'Tools', rows })).toBe('Tools');
  });
});

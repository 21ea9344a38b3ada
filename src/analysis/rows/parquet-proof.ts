/**
 * Which rows of a Parquet input must be read to check them: a row group
 * whose statistics say `v` is the contract version throughout and `event`
 * is one known name throughout (min = max, no nulls) is valid without being
 * read. A compacted trace is sorted by event, so only the row groups that
 * straddle two events are left to check (a few of a hundred), selected by
 * their row numbers, which the reader prunes row groups by; a file without
 * statistics, or with a row group they do not vouch for in `v`, is checked
 * whole.
 */
import { CONTRACT_VERSION } from '../../events/labels.js';
import { EVENT_NAMES } from '../../events/schemas.js';
import { sqlString, type Duck } from '../duck.js';

interface ColumnStats {
  group: number;
  /** The group's first row (0-based, as file_row_number) and its row count. */
  first: number;
  rows: number;
  column: string;
  min: string | null;
  max: string | null;
  nulls: number | null;
}

/**
 * WHERE conditions over `file_row_number` (read_parquet(..., file_row_number=true)), one per run of
 * row groups the statistics do not vouch for: none when they vouch for all, `true` when for none.
 * Each is its own scan (a reader prunes row groups by one range, not by an OR of several).
 */
export async function rowsToCheck(duck: Duck, path: string): Promise<string[]> {
  const rows = await duck.rows(
    `SELECT row_group_id AS "group", row_group_num_rows AS rows, path_in_schema AS "column",
            stats_min_value AS min, stats_max_value AS max, stats_null_count AS nulls
     FROM parquet_metadata(${sqlString(path)}) WHERE path_in_schema IN ('v', 'event') ORDER BY row_group_id`,
  );
  const firstRow = new Map<number, number>();
  let next = 0;
  for (const r of rows) {
    if (firstRow.has(Number(r.group))) continue;
    firstRow.set(Number(r.group), next);
    next += Number(r.rows);
  }
  const stats: ColumnStats[] = rows.map((r) => ({
    group: Number(r.group),
    first: firstRow.get(Number(r.group)) ?? 0,
    rows: Number(r.rows),
    column: String(r.column),
    min: r.min as string | null,
    max: r.max as string | null,
    nulls: r.nulls === null ? null : Number(r.nulls),
  }));
  const groups = new Set(stats.map((s) => s.group));
  const of = (column: string) => stats.filter((s) => s.column === column);
  const vouched = (s: ColumnStats, ok: (value: string) => boolean) => s.nulls === 0 && s.min !== null && s.min === s.max && ok(s.min);
  if (of('v').length !== groups.size || of('event').length !== groups.size) return ['true'];
  // v's statistics are the column's own type rendered as text ('1', or '1.0' for a DOUBLE column).
  if (!of('v').every((s) => vouched(s, (value) => value.trim() !== '' && Number(value) === CONTRACT_VERSION))) return ['true'];
  const known = new Set<string>(EVENT_NAMES);
  const ranges: [number, number][] = [];
  for (const s of of('event').sort((a, b) => a.first - b.first)) {
    if (vouched(s, (value) => known.has(value))) continue;
    const last = ranges.at(-1);
    if (last && last[1] === s.first - 1) last[1] = s.first + s.rows - 1;
    else ranges.push([s.first, s.first + s.rows - 1]);
  }
  return ranges.map(([from, to]) => `file_row_number BETWEEN ${from} AND ${to}`);
}

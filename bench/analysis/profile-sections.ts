/**
 * Where a report's SQL time goes: opens the inputs as a report does, then
 * times each report section (and the row opening) on its own.
 *
 *   node --import tsx bench/analysis/profile-sections.ts <trace...>
 */
import { reportColumns } from '../../src/analysis/analyze.js';
import { parseSections, parseTables, reportSql, REPORTS } from '../../src/analysis/reports.js';
import { openRows } from '../../src/analysis/rows/open-rows.js';
import { resolveInputs } from '../../src/analysis/inputs.js';

const paths = process.argv.slice(2);
const t0 = performance.now();
const files = await resolveInputs(paths, process.cwd());
const { duck, close } = await openRows(files, reportColumns(), { cache: { enabled: false } });
const rows: [string, number][] = [['(open rows)', performance.now() - t0]];
try {
  for (const r of REPORTS) {
    for (const t of parseTables(reportSql(r.id))) {
      const start = performance.now();
      await duck.exec(`CREATE OR REPLACE TEMP TABLE "${t.name}" AS ${t.sql}`);
      rows.push([`${r.id}/table ${t.name}`, performance.now() - start]);
    }
    for (const s of parseSections(reportSql(r.id))) {
      const t = performance.now();
      await duck.query(s.limit === null ? s.sql : `${s.sql}\nLIMIT ${s.limit}`);
      if (s.limit !== null) await duck.rows(`SELECT count(*) AS n FROM (${s.sql}\n)`);
      rows.push([`${r.id}/${s.id}`, performance.now() - t]);
    }
  }
} finally {
  close();
}
const total = rows.reduce((a, [, ms]) => a + ms, 0);
for (const [name, ms] of rows.sort((a, b) => b[1] - a[1])) console.log(`${name.padEnd(48)} ${(ms / 1000).toFixed(3).padStart(7)} s  ${((ms / total) * 100).toFixed(1).padStart(5)} %`);
console.log(`${'total'.padEnd(48)} ${(total / 1000).toFixed(3).padStart(7)} s`);

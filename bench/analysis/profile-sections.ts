/**
 * Where a report's SQL time goes: opens the inputs as a report does, then
 * times each report's working tables and sections on their own, each run
 * --repeat times (default 3) and the fastest kept (the machine is shared).
 *
 *   node --import tsx bench/analysis/profile-sections.ts [--repeat N] <trace...>
 */
import { reportColumns } from '../../src/analysis/analyze.js';
import { parseSections, parseTables, reportSql, REPORTS } from '../../src/analysis/reports.js';
import { openRows } from '../../src/analysis/rows/open-rows.js';
import { resolveInputs } from '../../src/analysis/inputs.js';

const argv = process.argv.slice(2);
const at = argv.indexOf('--repeat');
const repeat = at >= 0 ? Number(argv.splice(at, 2)[1]) : 3;
const paths = argv;
async function fastest(run: () => Promise<unknown>): Promise<number> {
  let best = Infinity;
  for (let i = 0; i < repeat; i++) {
    const t = performance.now();
    await run();
    best = Math.min(best, performance.now() - t);
  }
  return best;
}
const t0 = performance.now();
const files = await resolveInputs(paths, process.cwd());
const { duck, close } = await openRows(files, reportColumns(), { cache: { enabled: false } });
const rows: [string, number][] = [['(open rows)', performance.now() - t0]];
try {
  for (const r of REPORTS) {
    for (const t of parseTables(reportSql(r.id))) {
      rows.push([`${r.id}/table ${t.name}`, await fastest(() => duck.exec(`CREATE OR REPLACE TEMP TABLE "${t.name}" AS ${t.sql}`))]);
    }
    for (const s of parseSections(reportSql(r.id))) {
      const ms = await fastest(async () => {
        await duck.query(s.limit === null ? s.sql : `${s.sql}\nLIMIT ${s.limit}`);
        if (s.limit !== null) await duck.rows(`SELECT count(*) AS n FROM (${s.sql}\n)`);
      });
      rows.push([`${r.id}/${s.id}`, ms]);
    }
  }
} finally {
  close();
}
const total = rows.reduce((a, [, ms]) => a + ms, 0);
for (const [name, ms] of rows.sort((a, b) => b[1] - a[1])) console.log(`${name.padEnd(48)} ${(ms / 1000).toFixed(3).padStart(7)} s  ${((ms / total) * 100).toFixed(1).padStart(5)} %`);
console.log(`${'total'.padEnd(48)} ${(total / 1000).toFixed(3).padStart(7)} s`);

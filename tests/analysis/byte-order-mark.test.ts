/**
 * A trace that went through a Windows tool starts with a UTF-8 byte order mark (PowerShell's `Out-File -Encoding
 * utf8`, Notepad's "UTF-8 with BOM"). It is not part of the first line (RFC 8259 lets a parser ignore it): the
 * first event, run_start, is read, not quarantined as "not JSON", by the validator, a report (fresh, and from the
 * row cache cold and warm) and a query, with every figure that of the same trace without the mark. A real trace:
 * the demo suite's, written by faultline itself.
 */
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { cli } from '../cli/cli-io.js';
import { tempDir } from '../helpers/temp-dirs.js';
import { cacheIn, noCache, report } from './row-cache-fixtures.js';

const BOM = Buffer.from([0xef, 0xbb, 0xbf]);
let plain = '';
let marked = '';
let dir = '';

beforeAll(async () => {
  dir = tempDir();
  plain = join(dir, 'plain.jsonl');
  marked = join(dir, 'marked.jsonl');
  const ran = await cli(['run', 'suites/demo', '--out', plain]);
  expect(ran.stderr).not.toContain('internal error');
  writeFileSync(marked, Buffer.concat([BOM, readFileSync(plain)]));
}, 120_000);

describe('a trace that starts with a byte order mark', { timeout: 120_000 }, () => {
  it('validates whole: every line valid, the first one included', async () => {
    const lines = readFileSync(plain, 'utf8').trim().split('\n').length;
    const validated = await cli(['validate', marked]);
    expect(validated.stdout).toContain(`${lines} lines, ${lines} valid, 0 bad`);
    expect(validated.code).toBe(0);
  });

  it('reports the same figures as without it, fresh and from the row cache (cold, then warm)', async () => {
    const want = (await report([plain], noCache)).figures as { inputs: unknown[] };
    const strip = (figures: unknown) => JSON.parse(JSON.stringify(figures).replaceAll('marked.jsonl', 'plain.jsonl')) as unknown;
    const cache = cacheIn(join(dir, 'cache'));
    const uses: unknown[] = [];
    for (const options of [noCache, cache, cache]) {
      const got = await report([marked], options);
      expect(got.analysis.load.quarantined).toEqual([]);
      expect(strip(got.figures)).toEqual(want);
      uses.push(got.cache.files[0]?.use);
    }
    expect(uses.slice(1)).toEqual(['cold', 'unchanged']);
  });

  it('queries the first event like any other', async () => {
    const queried = await cli(['query', "select count(*) as n from events where event = 'run_start'", marked, '--json']);
    expect(queried.code).toBe(0);
    expect(JSON.parse(queried.stdout)).toMatchObject({ rows: [{ n: 1 }] });
  });
});

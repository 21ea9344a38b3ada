/**
 * Ordinary mistakes are usage errors: one line naming the file and the
 * reason, exit 2, never an internal error with a stack trace. `validate`
 * takes directories and globs like `report`.
 */
import { writeFileSync } from 'node:fs';
import { gzipSync } from 'node:zlib';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { cli } from '../cli/cli-io.js';
import { ev, line, tempDir, writeTrace } from './fixtures.js';

const good = () => [ev.sessionStart('s1'), ev.sessionEnd('s1', 'passed')].map(line);

function expectUsageError(r: { code: number; stderr: string }, ...parts: RegExp[]): void {
  expect(r.stderr).not.toMatch(/internal error|\n\s+at /);
  expect(r.stderr.trim().split('\n')).toHaveLength(1);
  for (const p of parts) expect(r.stderr).toMatch(p);
  expect(r.code).toBe(2);
}

describe('validate takes directories and globs like report', () => {
  it('checks every trace in a directory and behind a glob, .jsonl.gz included', async () => {
    const dir = tempDir();
    writeTrace(dir, 'a.jsonl', good());
    writeFileSync(join(dir, 'b.jsonl.gz'), gzipSync(good().join('\n') + '\n'));
    const all = await cli(['validate', dir]);
    expect(all.stdout).toMatch(/a\.jsonl: 2 lines, 2 valid, 0 bad/);
    expect(all.stdout).toMatch(/b\.jsonl\.gz: 2 lines, 2 valid, 0 bad/);
    expect(all.code).toBe(0);
    const globbed = await cli(['validate', join(dir, '*.jsonl')]);
    expect(globbed.stdout).toMatch(/a\.jsonl: 2 lines/);
    expect(globbed.stdout).not.toMatch(/b\.jsonl\.gz/);
    writeTrace(dir, 'c.jsonl', ['nope']);
    expect((await cli(['validate', dir])).code).toBe(1);
  });

  it('is a usage error for a path that names nothing', async () => {
    expectUsageError(await cli(['validate', join(tempDir(), 'missing')]), /no such file or directory/);
    expectUsageError(await cli(['validate', tempDir()]), /no trace files found/);
  });
});

describe('unreadable inputs are usage errors, not internal errors', () => {
  it('a .jsonl.gz that is not gzip', async () => {
    const dir = tempDir();
    const path = writeTrace(dir, 'fake.jsonl.gz', good());
    for (const argv of [['validate', path], ['report', path], ['query', 'SELECT count(*) FROM events', path], ['compact', path, '--to', join(dir, 'x.parquet')], ['diff', path, path]]) {
      expectUsageError(await cli(argv), /fake\.jsonl\.gz/, /not gzip/);
    }
  });

  it('a .jsonl.gz cut short', async () => {
    const dir = tempDir();
    const whole = gzipSync(Array.from({ length: 2000 }, (_, i) => line(ev.toolCall('s1', 'read', `c${i}`))).join('\n') + '\n');
    const path = join(dir, 'cut.jsonl.gz');
    writeFileSync(path, whole.subarray(0, Math.floor(whole.length / 2)));
    expectUsageError(await cli(['report', path]), /cut\.jsonl\.gz/, /gzip data cut short/);
    expectUsageError(await cli(['validate', path]), /cut\.jsonl\.gz/, /gzip data cut short/);
  });

  it('a .parquet that is not Parquet', async () => {
    const dir = tempDir();
    const path = writeTrace(dir, 'fake.parquet', good());
    expectUsageError(await cli(['report', path]), /fake\.parquet/, /not a Parquet file/);
    expectUsageError(await cli(['diff', path, path]), /fake\.parquet/, /not a Parquet file/);
  });

  it('report --html at an existing file', async () => {
    const dir = tempDir();
    const trace = writeTrace(dir, 't.jsonl', good());
    const file = join(dir, 'report.html');
    writeFileSync(file, 'keep me');
    expectUsageError(await cli(['report', trace, '--html', file]), /--html/, /report\.html/, /not a directory/);
  });
});

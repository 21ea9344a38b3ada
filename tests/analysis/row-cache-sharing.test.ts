/**
 * The row cache shared: reports running at once (in one process and in
 * several), a trace appended more often than it keeps segments, where the
 * cache lives, and `--no-cache`.
 */
import { spawn } from 'node:child_process';
import { appendFileSync, existsSync, readdirSync, readFileSync, realpathSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import { describe, expect, it } from 'vitest';
import type { CliIo } from '../../src/cli/io.js';
import { run } from '../../src/cli/program.js';
import { MAX_SEGMENTS } from '../../src/analysis/rows/merge-segments.js';
import { CACHE_FORMAT, type Manifest } from '../../src/analysis/rows/manifest.js';
import { badLines, cacheIn, noCache, report, scratch, sessions } from './row-cache-fixtures.js';

const tmp = scratch();

/** The manifests of every entry under a cache directory. */
function manifests(cacheDir: string): Manifest[] {
  const rows = join(cacheDir, `rows-v${CACHE_FORMAT}`);
  return readdirSync(rows)
    .filter((d) => !d.startsWith('.'))
    .map((d) => JSON.parse(readFileSync(join(rows, d, 'manifest.json'), 'utf8')) as Manifest);
}

/** Directories a report or a writer left behind: private reader directories, unnamed segments. */
function leftovers(cacheDir: string): string[] {
  const rows = join(cacheDir, `rows-v${CACHE_FORMAT}`);
  const readers = existsSync(join(rows, '.readers')) ? readdirSync(join(rows, '.readers')) : [];
  const tmpSegments = readdirSync(rows)
    .filter((d) => !d.startsWith('.'))
    .flatMap((d) => readdirSync(join(rows, d)).filter((n) => n.startsWith('tmp-') || n.endsWith('.tmp')));
  return [...readers, ...tmpSegments];
}

/** A report of `trace` in a child process (a second `faultline report` at the same time). */
function reportInChild(trace: string, cacheDir: string): Promise<unknown> {
  const analyze = pathToFileURL(resolve('src/analysis/analyze.ts')).href;
  const json = pathToFileURL(resolve('src/report/json.ts')).href;
  const script = `
    const { analyzeTraces } = await import(${JSON.stringify(analyze)});
    const { toJsonReport } = await import(${JSON.stringify(json)});
    const a = await analyzeTraces([${JSON.stringify(trace)}], { cache: { dir: ${JSON.stringify(cacheDir)}, minBytes: 0, figures: false } });
    process.stdout.write(JSON.stringify(toJsonReport(a)));
  `;
  return new Promise((done, fail) => {
    const child = spawn(process.execPath, ['--import', 'tsx', '--input-type=module', '-e', script], { stdio: ['ignore', 'pipe', 'pipe'] });
    let out = '';
    let err = '';
    child.stdout.on('data', (d: Buffer) => (out += d.toString()));
    child.stderr.on('data', (d: Buffer) => (err += d.toString()));
    child.on('close', (code) => (code === 0 ? done(JSON.parse(out)) : fail(new Error(`child exited ${code}: ${err}`))));
  });
}

describe('reports sharing the row cache', { timeout: 300_000 }, () => {
  it('two reports at once in one process, first of a new trace and then of it grown, agree with a fresh read and leave one usable entry', async () => {
    const dir = tmp();
    const cacheDir = join(dir, 'cache');
    const trace = join(dir, 't.jsonl');
    writeFileSync(trace, [...sessions(0, 30), ...badLines()].join('\n') + '\n');
    const fresh = (await report([trace], noCache)).figures;
    for (const r of await Promise.all([report([trace], cacheIn(cacheDir)), report([trace], cacheIn(cacheDir))])) expect(r.figures).toEqual(fresh);
    appendFileSync(trace, sessions(30, 10).join('\n') + '\n');
    const grown = (await report([trace], noCache)).figures;
    const both = await Promise.all([report([trace], cacheIn(cacheDir)), report([trace], cacheIn(cacheDir))]);
    for (const r of both) expect(r.figures).toEqual(grown);
    const after = await report([trace], cacheIn(cacheDir));
    expect(after.cache.files[0]).toMatchObject({ use: 'unchanged', parsedBytes: 0 });
    expect(after.figures).toEqual(grown);
    expect(manifests(cacheDir)).toHaveLength(1);
    expect(leftovers(cacheDir)).toEqual([]);
  });

  it('three reports at once in separate processes, while the trace grows, each match a fresh read of what they saw', async () => {
    const dir = tmp();
    const cacheDir = join(dir, 'cache');
    const trace = join(dir, 't.jsonl');
    writeFileSync(trace, [...sessions(0, 40), ...badLines()].join('\n') + '\n');
    const fresh = (await report([trace], noCache)).figures;
    const first = await Promise.all([reportInChild(trace, cacheDir), reportInChild(trace, cacheDir), reportInChild(trace, cacheDir)]);
    for (const f of first) expect(f).toEqual(fresh);
    appendFileSync(trace, sessions(40, 10).join('\n') + '\n');
    const grown = (await report([trace], noCache)).figures;
    const second = await Promise.all([reportInChild(trace, cacheDir), reportInChild(trace, cacheDir), report([trace], cacheIn(cacheDir)).then((r) => r.figures)]);
    for (const f of second) expect(f).toEqual(grown);
    const after = await report([trace], cacheIn(cacheDir));
    expect(after.cache.files[0]).toMatchObject({ use: 'unchanged', parsedBytes: 0 });
    expect(after.figures).toEqual(grown);
    expect(leftovers(cacheDir)).toEqual([]);
  });

  it(`keeps a trace appended many times at a few segments (at most ${MAX_SEGMENTS}), with unchanged figures`, async () => {
    const dir = tmp();
    const cacheDir = join(dir, 'cache');
    const trace = join(dir, 't.jsonl');
    writeFileSync(trace, sessions(0, 20).join('\n') + '\n');
    await report([trace], cacheIn(cacheDir));
    for (let i = 0; i < MAX_SEGMENTS + 2; i++) {
      appendFileSync(trace, [...sessions(20 + 3 * i, 3), ...(i % 4 === 0 ? badLines() : [])].join('\n') + '\n');
      await report([trace], cacheIn(cacheDir));
    }
    const [m] = manifests(cacheDir);
    expect(m?.segments.length).toBeLessThanOrEqual(MAX_SEGMENTS);
    const cached = await report([trace], cacheIn(cacheDir));
    expect(cached.cache.files[0]).toMatchObject({ use: 'unchanged', parsedBytes: 0 });
    expect(cached.figures).toEqual((await report([trace], noCache)).figures);
  });
});

describe('the row cache from the command line', { timeout: 300_000 }, () => {
  const capture = (env: NodeJS.ProcessEnv) => {
    const out: string[] = [];
    const io: CliIo = { stdout: (t) => void out.push(t), stderr: () => {}, env, cwd: process.cwd(), isTTY: false };
    return { io, out: () => out.join('') };
  };

  it('keeps a trace of 4 MiB or more under $FAULTLINE_CACHE_DIR, and --no-cache keeps nothing and prints the same report', async () => {
    const dir = tmp();
    const cacheDir = join(dir, 'cache');
    const trace = join(dir, 'big.jsonl');
    writeFileSync(trace, [...sessions(0, 2300), ...badLines()].join('\n') + '\n');
    const off = capture({ FAULTLINE_CACHE_DIR: cacheDir });
    expect(await run(['report', trace, '--no-cache', '--json'], off.io)).toBe(0);
    expect(existsSync(cacheDir)).toBe(false);
    const on = capture({ FAULTLINE_CACHE_DIR: cacheDir });
    expect(await run(['report', trace, '--json'], on.io)).toBe(0);
    expect(manifests(cacheDir).map((m) => m.path)).toEqual([realpathSync(trace)]);
    const again = capture({ FAULTLINE_CACHE_DIR: cacheDir });
    expect(await run(['report', trace, '--json'], again.io)).toBe(0);
    expect(JSON.parse(on.out())).toEqual(JSON.parse(off.out()));
    expect(JSON.parse(again.out())).toEqual(JSON.parse(off.out()));
  });

  it('leaves the cache directory untouched for small traces', async () => {
    const dir = tmp();
    const cacheDir = join(dir, 'cache');
    const trace = join(dir, 'small.jsonl');
    writeFileSync(trace, sessions(0, 10).join('\n') + '\n');
    expect(await run(['report', trace], capture({ FAULTLINE_CACHE_DIR: cacheDir }).io)).toBe(0);
    expect(existsSync(cacheDir)).toBe(false);
  });
});

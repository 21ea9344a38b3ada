/**
 * The bundled CLI loads its CommonJS chunks through src/cli/bundle-loader.ts, from the V8 code cache the build
 * wrote beside them (scripts/code-cache.mjs). Each case runs in a child node: the loader keeps one set of chunks
 * per process, and a cache is only ever taken by a fresh one.
 * - on small bundles of our own: a chunk's require of another chunk, of a package and of a builtin, its
 *   __filename, and its import() (which the bundler makes a call of the loader's dynImp) all work; a second process compiles every chunk from the cache the first wrote; a
 *   chunk changed after its cache was written is compiled from its source (V8 refuses the stale cache), so a
 *   cache never changes what runs;
 * - on the build (dist/, as npm ci built it): V8 takes every cache the build shipped, the run path is cached,
 *   and the CLI runs from it, on the main thread and on worker threads (the worker's shim); under
 *   `--enable-source-maps` a stack trace from a chunk names the module it came from.
 */
import { spawnSync } from 'node:child_process';
import { appendFileSync, existsSync, readdirSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import { describe, expect, it } from 'vitest';
import { tempDir } from '../helpers/temp-dirs.js';

const root = resolve(import.meta.dirname, '../..');
const bundle = join(root, 'dist/cli/bundle');

/**
 * Runs `script` (ESM, with the loader as `L`) in a child node, from a file (a worker thread the script starts must not
 * inherit `--input-type`); the loader from src (through tsx) unless `built`. Returns its stdout parsed as JSON.
 */
function child(script: string, built = false, nodeArgs: string[] = []): { result: unknown; stats: { fromCache: number; compiled: number; rejected: string[] } } {
  const loader = pathToFileURL(join(root, built ? 'dist/cli/bundle-loader.js' : 'src/cli/bundle-loader.ts')).href;
  const file = join(tempDir('faultline-loader-child-'), 'child.mjs');
  // tsx turns source-mapped stack traces on, with which the loader leaves chunks to Node's own loader (the last case).
  writeFileSync(file, `${built ? '' : 'process.setSourceMapsEnabled(false);\n'}const L = await import(${JSON.stringify(loader)});\n${script}`);
  const ran = spawnSync(process.execPath, [...nodeArgs, ...(built ? [] : ['--import', 'tsx']), file], { cwd: root, encoding: 'utf8', timeout: 120_000 });
  expect(ran.status, ran.stderr).toBe(0);
  return JSON.parse(ran.stdout) as never;
}

function smallBundle(): string {
  const dir = tempDir('faultline-bundle-loader-');
  writeFileSync(join(dir, 'main.cjs'), `#!/usr/bin/env node\nconst other = require('./other.cjs');\nconst path = require('node:path');\nexports.run = async () => ({ other: other.name(), base: path.basename(__filename), os: typeof (await dynImp('node:os')).cpus });\n`);
  writeFileSync(join(dir, 'other.cjs'), `exports.name = function name() { return 'other ' + require('node:path').basename(__dirname).length; };\n`);
  return dir;
}

const runMain = (dir: string, write = false) => `
  const main = L.loadBundleChunk(${JSON.stringify(join(dir, 'main.cjs'))});
  const result = await main.run();
  ${write ? 'L.writeCodeCache();' : ''}
  process.stdout.write(JSON.stringify({ result, stats: L.codeCacheStats() }));`;

describe('the bundle loader', () => {
  it('runs chunks that require each other and builtins, and import through dynImp; a fresh process takes the cache the first wrote', () => {
    const dir = smallBundle();
    const first = child(runMain(dir, true));
    const expected = { other: `other ${dir.split('/').at(-1)!.length}`, base: 'main.cjs', os: 'function' };
    expect(first.result).toEqual(expected);
    expect(first.stats).toEqual({ fromCache: 0, compiled: 2, rejected: [] });
    expect(readdirSync(dir).sort()).toEqual(['main.cjs', 'main.cjs.v8cache', 'other.cjs', 'other.cjs.v8cache']);
    const second = child(runMain(dir));
    expect(second.result).toEqual(expected);
    expect(second.stats).toEqual({ fromCache: 2, compiled: 0, rejected: [] });
  });

  it('compiles a chunk changed after its cache was written from its source: the stale cache is refused, the new code runs', () => {
    const dir = smallBundle();
    child(runMain(dir, true));
    appendFileSync(join(dir, 'other.cjs'), `exports.name = function name() { return 'changed'; };\n`);
    const after = child(runMain(dir));
    expect((after.result as { other: string }).other).toBe('changed');
    expect(after.stats).toEqual({ fromCache: 1, compiled: 1, rejected: [join(dir, 'other.cjs')] });
  });
});

describe('the built CLI', () => {
  it('ships a code cache V8 takes for every chunk it covers, the run path among them', () => {
    expect(existsSync(join(bundle, 'bin.cjs')), 'dist/ is built by npm ci (prepare)').toBe(true);
    const checked = child(`process.stdout.write(JSON.stringify({ result: L.checkCodeCache(${JSON.stringify(bundle)}), stats: L.codeCacheStats() }));`).result as { chunk: string; accepted: boolean }[];
    expect(checked.filter((c) => !c.accepted)).toEqual([]);
    const cached = checked.map((c) => c.chunk);
    // The entry, the harness's task runner and the Anthropic SDK: what every mock run compiles first.
    for (const prefix of ['bin.cjs', 'run-task-', 'anthropic-']) expect(cached.some((c) => c.startsWith(prefix)), prefix).toBe(true);
  });

  it('loads from the cache and runs the demo suite on the main thread and on two worker threads', () => {
    const dir = tempDir('faultline-bundle-run-');
    for (const workers of ['1', '2']) {
      const out = join(dir, `w${workers}.jsonl`);
      const ran = child(
        `
        process.argv = [process.argv[0], 'faultline', 'run', 'suites/demo/basics.yaml', '--workers', '${workers}', '-j', '4', '--out', ${JSON.stringify(out)}];
        const write = process.stdout.write.bind(process.stdout);
        process.stdout.write = () => true;
        process.on('exit', () => write(JSON.stringify({ result: process.exitCode ?? 0, stats: L.codeCacheStats() })));
        L.loadBundleChunk(${JSON.stringify(join(bundle, 'bin.cjs'))});`,
        true,
      );
      expect(ran.result, `--workers ${workers}`).toBe(0);
      expect(ran.stats.rejected).toEqual([]);
      expect(ran.stats.fromCache).toBeGreaterThan(10);
      expect(existsSync(out)).toBe(true);
    }
  });

  it('under --enable-source-maps, names the module a chunk\'s frame came from, and still imports through dynImp', () => {
    const chunk = readdirSync(bundle).find((f) => /^builtin-.*\.cjs$/.test(f))!;
    const ran = child(
      `
      const m = L.loadBundleChunk(${JSON.stringify(join(bundle, chunk))});
      let frame = '';
      try { m.packedMap(null, (x) => x); } catch (e) { frame = e.stack.split('\\n')[1]; }
      const os = typeof (await globalThis.dynImp('node:os')).cpus;
      process.stdout.write(JSON.stringify({ result: { frame, os }, stats: L.codeCacheStats() }));`,
      true,
      ['--enable-source-maps'],
    );
    expect((ran.result as { frame: string }).frame).toContain('dist/harness/packed-map.js');
    expect((ran.result as { os: string }).os).toBe('function');
    // Node's own loader ran the chunk: nothing came from (or went past) the code cache.
    expect(ran.stats).toEqual({ fromCache: 0, compiled: 0, rejected: [] });
  });
});

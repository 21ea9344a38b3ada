/**
 * The caches are keyed by what the bytes are, not only by what stat says:
 * an edit in the middle of a trace that keeps its size and whose mtime is
 * put back (`touch -d`) is read afresh by the row cache and by the figures
 * cache; and figures read back name this report's inputs as it was given
 * them (a symlink stays the link), not those of the report that stored them.
 */
import { execFileSync } from 'node:child_process';
import { readFileSync, statSync, symlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { toJsonReport } from '../../src/report/json.js';
import { renderTerminal } from '../../src/report/terminal.js';
import { cacheIn, noCache, report, scratch, sessions } from './row-cache-fixtures.js';

const tmp = scratch();

/** A time in whole seconds, as `touch -d` sets it (so it can be set back exactly). */
const STAMP = '@1700000000';

/** Session s500 (far from both ends: outside the first and last 64 KiB) passed -> failed, same length; the mtime put back with `touch -d`. */
function editMiddleKeepingStat(path: string): void {
  const before = statSync(path);
  const lines = readFileSync(path, 'utf8').split('\n');
  const i = lines.findIndex((l) => l.includes('"session_end"') && l.includes('"s500"'));
  const at = lines.slice(0, i).join('\n').length;
  expect(at).toBeGreaterThan(128 * 1024);
  expect(before.size - at).toBeGreaterThan(128 * 1024);
  lines[i] = (lines[i] as string).replace('"passed"', '"failed"');
  writeFileSync(path, lines.join('\n'));
  execFileSync('touch', ['-d', STAMP, path]);
  expect(statSync(path).size).toBe(before.size);
  expect(statSync(path).mtimeMs).toBe(before.mtimeMs);
}

describe('a trace edited in place with its size and mtime kept', { timeout: 180_000 }, () => {
  for (const layer of ['row cache', 'figures cache'] as const) {
    it(`is read afresh by the ${layer}`, async () => {
      const dir = tmp();
      const cache = layer === 'row cache' ? cacheIn(join(dir, 'cache')) : { dir: join(dir, 'cache'), minBytes: 0 };
      const trace = join(dir, 't.jsonl');
      writeFileSync(trace, sessions(0, 1000).join('\n') + '\n');
      execFileSync('touch', ['-d', STAMP, trace]);
      const before = await report([trace], cache);
      editMiddleKeepingStat(trace);
      const again = await report([trace], cache);
      const fresh = await report([trace], noCache);
      expect(fresh.figures).not.toEqual(before.figures);
      expect(again.figures).toEqual(fresh.figures);
      if (layer === 'row cache') expect(again.cache.files[0]?.use).toBe('stale');
      else expect(again.cache.figures).toBe('stored');
    });
  }
});

describe('figures read back', { timeout: 180_000 }, () => {
  it('name the inputs as this report was given them: a link stays the link, its target the target', async () => {
    const dir = tmp();
    const cache = { dir: join(dir, 'cache'), minBytes: 0 };
    const target = join(dir, 'target.jsonl');
    const link = join(dir, 'link.jsonl');
    writeFileSync(target, sessions(0, 30).join('\n') + '\n{"v":1, torn\n');
    symlinkSync(target, link);
    const viaLink = await report([link], cache);
    const viaTarget = await report([target], cache);
    const viaLinkAgain = await report([link], cache);
    expect([viaLink.cache.figures, viaTarget.cache.figures, viaLinkAgain.cache.figures]).toEqual(['stored', 'hit', 'hit']);
    for (const [r, name] of [[viaTarget, target], [viaLinkAgain, link]] as const) {
      const fresh = await report([name], noCache);
      expect(r.analysis.load.files).toEqual([name]);
      expect(r.analysis.inputs.map((i) => i.path)).toEqual([name]);
      expect(r.analysis.load.quarantined.map((q) => q.file)).toEqual([name]);
      expect(r.cache.files.map((f) => f.path)).toEqual([name]);
      expect(toJsonReport(r.analysis)).toEqual(toJsonReport(fresh.analysis));
      const other = name === link ? 'target.jsonl' : 'link.jsonl';
      expect(renderTerminal(r.analysis, { color: false, wrap: false })).not.toContain(other);
    }
  });
});

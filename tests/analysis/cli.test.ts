import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { run } from '../../src/cli/program.js';
import type { CliIo } from '../../src/cli/io.js';
import { ev, line, tempDir, writeTrace } from './fixtures.js';
import { goldenLines } from './golden-trace.js';

function capture(env: NodeJS.ProcessEnv = {}, isTTY = false, cwd = process.cwd()) {
  const out: string[] = [];
  const err: string[] = [];
  const io: CliIo = { stdout: (t) => void out.push(t), stderr: (t) => void err.push(t), env, cwd, isTTY };
  return { io, out: () => out.join(''), err: () => err.join('') };
}

/** A run where `passed` of `n` sessions pass and bash takes `bashMs` per call. */
function runTrace(dir: string, name: string, passed: number, n: number, bashMs: number): string {
  const lines: string[] = [];
  for (let i = 0; i < n; i++) {
    const s = `${name}-${i}`;
    lines.push(line(ev.sessionStart(s)), line(ev.toolCall(s, 'bash', `b${i}`)), line(ev.toolSuccess(s, 'bash', `b${i}`, bashMs + i)));
    lines.push(line(ev.sessionEnd(s, i < passed ? 'passed' : 'failed')));
  }
  return writeTrace(dir, `${name}.jsonl`, lines);
}

describe('faultline report', () => {
  it('prints tables and the reconciliation, and --strict exits 1 when a line was quarantined', async () => {
    const path = writeTrace(tempDir(), 't.jsonl', [...goldenLines(), 'not json']);
    const plain = capture();
    expect(await run(['report', path], plain.io)).toBe(0);
    expect(plain.out()).toContain(`lines read = events used + lines quarantined: ${goldenLines().length + 1} = ${goldenLines().length} + 1`);
    expect(plain.out()).toContain(`${path}:${goldenLines().length + 1}: not JSON`);
    expect(plain.out()).toContain('tool bash: lost = 1');
    expect(plain.out()).not.toContain('\u001b['); // not a TTY: no colour
    const strict = capture();
    expect(await run(['report', path, '--strict'], strict.io)).toBe(1);
  });

  it('colours only on a TTY without NO_COLOR', async () => {
    const path = writeTrace(tempDir(), 't.jsonl', goldenLines());
    const tty = capture({}, true);
    await run(['report', path], tty.io);
    expect(tty.out()).toContain('\u001b[');
    const noColor = capture({ NO_COLOR: '1' }, true);
    await run(['report', path], noColor.io);
    expect(noColor.out()).not.toContain('\u001b[');
  });

  it('--json lists every quarantined line, beyond the 20 shown in tables', async () => {
    const path = writeTrace(tempDir(), 't.jsonl', [...goldenLines(), ...Array.from({ length: 25 }, () => '{')]);
    const c = capture();
    await run(['report', path, '--json'], c.io);
    const json = JSON.parse(c.out()) as { quarantine: unknown[]; reconciliation: { lines_quarantined: number }; reports: Record<string, unknown> };
    expect(json.quarantine).toHaveLength(25);
    expect(json.reconciliation.lines_quarantined).toBe(25);
    expect(Object.keys(json.reports)).toContain('defense_report');
    const text = capture();
    await run(['report', path], text.io);
    expect(text.out()).toContain('… and 5 more (all of them in --json)');
  });

  it('--md and --html write their formats', async () => {
    const dir = tempDir();
    const path = writeTrace(dir, 't.jsonl', goldenLines());
    const md = capture();
    await run(['report', path, '--md'], md.io);
    expect(md.out()).toMatch(/^## faultline report/);
    expect(md.out()).toContain('| tool | calls |');
    const html = capture();
    await run(['report', path, '--html', join(dir, 'html')], html.io);
    expect(readFileSync(join(dir, 'html', 'index.html'), 'utf8')).toContain('<svg');
  });

  it('fails with a user error when a path matches nothing', async () => {
    const c = capture();
    expect(await run(['report', join(tempDir(), 'missing.jsonl')], c.io)).toBe(2);
    expect(c.err()).toContain('no such file or directory');
  });
});

describe('faultline query, compact, diff', () => {
  it('query runs SQL over the per-event views', async () => {
    const path = writeTrace(tempDir(), 't.jsonl', goldenLines());
    const c = capture();
    expect(await run(['query', "SELECT failure_kind, count(*) AS n FROM tool_failure GROUP BY 1 ORDER BY 1", path, '--json'], c.io)).toBe(0);
    const json = JSON.parse(c.out()) as { rows: { failure_kind: string; n: number }[] };
    expect(json.rows).toEqual([
      { failure_kind: 'exception', n: 1 },
      { failure_kind: 'not_found', n: 1 },
      { failure_kind: 'permission_denied', n: 1 },
      { failure_kind: 'timeout', n: 1 },
      { failure_kind: 'tool_error', n: 1 },
    ]);
    const bad = capture();
    expect(await run(['query', 'SELEC nonsense', path], bad.io)).toBe(2);
  });

  it('compact writes Parquet that reports exactly like the JSONL it came from', async () => {
    const dir = tempDir();
    const path = writeTrace(dir, 't.jsonl', [...goldenLines(), 'garbage']);
    const parquet = join(dir, 'out.parquet');
    expect(await run(['compact', path, '--to', parquet], capture().io)).toBe(0);
    expect(existsSync(parquet)).toBe(true);
    const [a, b] = [capture(), capture()];
    await run(['report', path, '--json'], a.io);
    await run(['report', parquet, '--json'], b.io);
    const ja = JSON.parse(a.out()) as { reports: unknown; reconciliation: unknown; quarantine: unknown };
    const jb = JSON.parse(b.out()) as { reports: unknown; reconciliation: unknown; quarantine: unknown };
    expect(jb.reports).toEqual(ja.reports);
    // The Parquet file keeps its source's verdicts: the garbage line is still read and quarantined.
    expect(jb.reconciliation).toEqual(ja.reconciliation);
    expect(jb.quarantine).toEqual(ja.quarantine);
  });

  it('diff flags a significant pass-rate drop and a p95 rise, and --fail-on-regression exits 1', async () => {
    const dir = tempDir();
    const base = runTrace(dir, 'base', 95, 100, 100);
    const worse = runTrace(dir, 'cand', 60, 100, 200);
    const c = capture();
    expect(await run(['diff', base, worse, '--fail-on-regression'], c.io)).toBe(1);
    expect(c.out()).toContain('pass rate fell from 95.0% to 60.0%');
    expect(c.out()).toMatch(/tool bash: p95 \d+\.\d ms -> \d+\.\d ms/);
    const same = capture();
    expect(await run(['diff', base, base, '--fail-on-regression'], same.io)).toBe(0);
    expect(same.out()).toContain('none');
  });

  it('diff does not call a small pass-rate wobble a regression', async () => {
    const dir = tempDir();
    const c = capture();
    expect(await run(['diff', runTrace(dir, 'a', 9, 10, 100), runTrace(dir, 'b', 8, 10, 100), '--fail-on-regression'], c.io)).toBe(0);
  });
});

describe('the last line of a terminal report (item 13 of issue 29)', () => {
  it('says whether --strict would fail, and why', async () => {
    const dir = tempDir();
    const clean = writeTrace(dir, 'clean.jsonl', goldenLines());
    const bad = writeTrace(dir, 'bad.jsonl', [...goldenLines(), 'not json']);
    const last = (text: string) => text.trimEnd().split('\n').at(-1);
    const a = capture();
    expect(await run(['report', clean], a.io)).toBe(0);
    expect(last(a.out())).toBe(`--strict would pass: no line quarantined, no empty input file, ${goldenLines().length} events used`);
    const b = capture();
    expect(await run(['report', bad], b.io)).toBe(0);
    expect(last(b.out())).toBe('--strict would fail (exit 1): 1 line quarantined');
    const c = capture();
    expect(await run(['report', bad, '--strict'], c.io)).toBe(1);
    expect(last(c.out())).toBe('--strict fails (exit 1): 1 line quarantined');
  });
});

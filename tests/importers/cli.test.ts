import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { writeTrace } from '../analysis/fixtures.js';
import { goldenLines } from '../analysis/golden-trace.js';
import { FIXTURES, cli, jsonReport, scratch } from './helpers.js';

describe('faultline import / export: usage and exit codes', () => {
  it('rejects an unknown format, a non-.jsonl output and a path that matches nothing, with exit 2', async () => {
    const out = join(scratch(), 'x.jsonl');
    expect(await cli(['import', 'langsmith', FIXTURES, '--out', out])).toMatchObject({ code: 2, stderr: expect.stringContaining('unknown format "langsmith" (one of: otel, claude-code, openai-agents, tau-bench, tau2-bench)') });
    expect(await cli(['import', 'otel', FIXTURES, '--out', 'x.json'])).toMatchObject({ code: 2, stderr: expect.stringContaining('--out must name a .jsonl file') });
    expect(await cli(['import', 'otel', join(FIXTURES, 'nope'), '--out', out])).toMatchObject({ code: 2, stderr: expect.stringContaining('no such file or directory') });
    expect(await cli(['export', 'otel', join(FIXTURES, 'otel')])).toMatchObject({ code: 2, stderr: expect.stringContaining('give one of --out <file> or --endpoint <url>') });
    expect(await cli(['export', 'otel', join(FIXTURES, 'otel'), '--endpoint', 'ftp://x'])).toMatchObject({ code: 2 });
  });

  it('exits 1 when nothing could be imported, and under --strict when a record was quarantined', async () => {
    const dir = scratch();
    const junk = join(dir, 'junk.jsonl');
    writeFileSync(junk, 'not json\n{"also": "not a transcript"}\n');
    const none = await cli(['import', 'claude-code', junk, '--out', join(dir, 'o.jsonl')]);
    expect(none.code).toBe(1);
    expect(none.stderr).toContain(`${junk}:1: not JSON`);
    expect(none.stderr).toContain(`${junk}:2: not a Claude Code transcript line (no "type")`);
    const strict = await cli(['import', 'otel', join(FIXTURES, 'otel/openinference.jsonl'), '--out', join(dir, 'p.jsonl'), '--strict']);
    expect(strict.code).toBe(1);
    expect((await cli(['import', 'otel', join(FIXTURES, 'otel/openinference.jsonl'), '--out', join(dir, 'q.jsonl')])).code).toBe(0);
  });

  it('recognises each format by content, next to native traces, and refuses a .json file it cannot recognise', async () => {
    const dir = scratch();
    const native = writeTrace(dir, 'native.jsonl', goldenLines());
    const report = await jsonReport([native, join(FIXTURES, 'otel/genai-export.json'), join(FIXTURES, 'tau-bench'), join(FIXTURES, 'openai-agents/batch.json')]);
    expect([...new Set(report.imports.map((i) => i.format))].sort()).toEqual(['openai-agents', 'otel', 'tau-bench']);
    expect(report.files).toContain(native);
    expect(report.reconciliation.text).toMatch(new RegExp(`^lines read = events used \\+ lines quarantined: ${goldenLines().length} = ${goldenLines().length} \\+ 0; imported `));
    const unknown = join(dir, 'other.json');
    writeFileSync(unknown, '{"hello": "world"}\n');
    expect(await cli(['report', unknown])).toMatchObject({ code: 2, stderr: expect.stringContaining('not a format faultline recognises by content; name it with --format') });
    // --strict counts an import's quarantined records like native bad lines.
    expect((await cli(['report', join(FIXTURES, 'otel/openinference.jsonl'), '--strict'])).code).toBe(1);
  });

  it('shows a progress line on a terminal while a large import runs', async () => {
    const dir = scratch();
    const big = join(dir, 'session.jsonl');
    const line = JSON.stringify({ type: 'user', sessionId: 's', timestamp: '2025-06-01T10:00:00.000Z', message: { role: 'user', content: 'x'.repeat(4000) } });
    writeFileSync(big, `${line}\n`.repeat(5000)); // ~20 MB
    const r = await cli(['import', 'claude-code', big, '--out', join(dir, 'o.jsonl')], { stderrIsTTY: true });
    expect(r.stderr).toMatch(/\rimporting: 0\.\d\d \/ 0\.02 GB \(\d+%\), \d+ events/);
    expect(r.stderr.endsWith('\r\u001b[K')).toBe(true);
  });
});

describe('diff of imported traces', () => {
  it('counts pass rate over sessions with a known outcome only: sessions without one are neither passes nor fails', async () => {
    const r = await cli(['diff', join(FIXTURES, 'claude-code'), join(FIXTURES, 'tau-bench/tool-calling-gpt-4o-0.0_range_0-3_user-gpt-4o-llm.json'), '--json', '--fail-on-regression']);
    expect(r.code, r.stderr).toBe(0);
    const diff = JSON.parse(r.stdout) as { tables: { id: string; rows: Record<string, unknown>[] }[] };
    const pass = diff.tables.find((t) => t.rows.some((row) => 'base_sessions' in row))?.rows[0];
    expect(pass).toMatchObject({ base_sessions: 0, base_pass_rate_of_ended_sessions: null, candidate_sessions: 3, candidate_passed: 1 });
  });
});

describe('faultline import --explain', () => {
  it('says per kind of record how many were used and the events they became, and why the others were skipped or quarantined', async () => {
    const r = await cli(['import', 'otel', join(FIXTURES, 'otel/genai-export.json'), '--out', join(scratch(), 'o.jsonl'), '--explain']);
    expect(r.code).toBe(0);
    expect(r.stdout).toContain('explain otel (1 file): 11 spans = 8 used + 1 skipped + 2 quarantined -> 18 events');
    expect(r.stdout).toContain('    tool span (gen_ai.operation.name execute_tool): 3 spans -> tool_call 3, tool_success 2, tool_failure 1');
    expect(r.stdout).toContain('    gen_ai.operation.name embeddings (no contract event): 1');
    expect(r.stdout).toMatch(/quarantined 2:\n {4}resourceSpans\[1\]: traceId is not 32 lowercase hex digits/);
    const tau = await cli(['import', 'tau-bench', join(FIXTURES, 'tau-bench'), '--out', join(scratch(), 't.jsonl'), '--explain']);
    expect(tau.stdout).toMatch(/result \(ReAct\/Act: Action: JSON\): 2 results -> /);
    expect(tau.stdout).toMatch(/result \(tool_calls\): 2 results -> /);
  });

  it('says how sessions were formed when a trace has no session span', async () => {
    const r = await cli(['import', 'otel', join(FIXTURES, 'otel/genai-export.json'), '--out', join(scratch(), 'o.jsonl')]);
    expect(r.stdout).toContain('warning (1 span): a trace with no session span');
  });
});

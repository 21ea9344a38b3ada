/**
 * The tool-layer figures (truncations, spills and output sizes per tool;
 * batches and parallelism per turn; whole-turn time; tool_search and what
 * it loaded; the net benefit of deferred loading) equal the same counts
 * made here by reading the JSONL in TypeScript, and every renderer shows
 * them. One trace is the benchmark's generator (every tool, batches of 1-3),
 * one is written by a real run of the harness through `faultline run`.
 */
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { analyzeTraces } from '../../src/analysis/analyze.js';
import { findSection, type Analysis } from '../../src/analysis/report-model.js';
import { renderHtml } from '../../src/report/html.js';
import { toJsonReport } from '../../src/report/json.js';
import { renderMarkdown } from '../../src/report/markdown.js';
import { renderTerminal } from '../../src/report/terminal.js';
import { generateLines } from '../../bench/analysis/generate.js';
import { cli } from '../cli/cli-io.js';
import { tempDir } from './fixtures.js';

type Ev = Record<string, unknown> & { event: string; run_id: string; session_id: string; turn: number; ts: number };
const readEvents = (path: string): Ev[] => readFileSync(path, 'utf8').split('\n').filter(Boolean).map((l) => JSON.parse(l) as Ev);
/** Nearest rank (quantile_disc): the smallest value with at least q of the values at or below it. */
const nearestRank = (xs: number[], q: number) => [...xs].sort((a, b) => a - b)[Math.ceil(xs.length * q) - 1];
/** Linear between closest ranks (quantile_cont). */
const interpolated = (xs: number[], q: number) => {
  const s = [...xs].sort((a, b) => a - b);
  const at = (s.length - 1) * q;
  const lo = Math.floor(at);
  return (s[lo] as number) + ((s[Math.min(lo + 1, s.length - 1)] as number) - (s[lo] as number)) * (at - lo);
};
const groupBy = <T,>(xs: T[], key: (x: T) => string) => {
  const m = new Map<string, T[]>();
  for (const x of xs) m.set(key(x), [...(m.get(key(x)) ?? []), x]);
  return m;
};
const turnKey = (e: Ev) => `${e.run_id}\0${e.session_id}\0${e.turn}`;
const one = (a: Analysis, id: string) => findSection(a, id)?.rows[0] ?? {};

/** Every renderer names the section and shows a figure of it. */
async function expectRendered(analysis: Analysis, titles: string[]): Promise<void> {
  const outputs = { terminal: renderTerminal(analysis, { color: false, wrap: false }), markdown: renderMarkdown(analysis), html: await renderHtml(analysis) };
  for (const [name, text] of Object.entries(outputs)) for (const t of titles) expect(text, `${name}: ${t}`).toContain(t);
  const json = toJsonReport(analysis) as { reports: { tool_usage: Record<string, unknown> } };
  expect(Object.keys(json.reports.tool_usage)).toEqual(['tool_output', 'tool_batches', 'turn_time', 'tool_search', 'deferred_loading']);
}

describe('tool usage figures', { timeout: 240_000 }, () => {
  it('equal counts made from the JSONL: output per tool, batches per turn, whole-turn time', async () => {
    const dir = tempDir();
    const trace = join(dir, 'gen.jsonl');
    writeFileSync(trace, [...generateLines({ events: 30_000, seed: 5 })].join('\n') + '\n');
    const events = readEvents(trace);
    const analysis = await analyzeTraces([trace], { cache: { enabled: false } });

    const successes = events.filter((e) => e.event === 'tool_success');
    const output = findSection(analysis, 'tool_output')?.rows ?? [];
    const byTool = groupBy(successes, (e) => String(e.tool));
    expect(output.map((r) => r.tool).sort()).toEqual([...byTool.keys()].sort());
    for (const [tool, rows] of byTool) {
      const sizes = rows.map((e) => e.output_bytes as number);
      expect(output.find((r) => r.tool === tool), tool).toMatchObject({
        results: rows.length,
        truncated: rows.filter((e) => e.truncated === true).length,
        spilled: rows.filter((e) => e.spilled === true).length,
        p50_output_bytes_of_results: nearestRank(sizes, 0.5),
        p95_output_bytes_of_results: nearestRank(sizes, 0.95),
        max_output_bytes_of_results: Math.max(...sizes),
      });
    }
    expect(output.reduce((n, r) => n + (r.truncated as number), 0)).toBeGreaterThan(0);

    const calls = events.filter((e) => e.event === 'tool_call');
    const batches = groupBy(calls, (e) => `${turnKey(e)}\0${e.batch}`);
    const turns = groupBy(calls, turnKey);
    const widths = [...batches.values()].map((b) => b.length);
    expect(one(analysis, 'tool_batches')).toMatchObject({
      turns_with_tool_calls: turns.size,
      batches: batches.size,
      calls_in_batches: calls.length,
      max_calls_per_batch: Math.max(...widths),
      parallel_batches: widths.filter((w) => w > 1).length,
    });
    expect(one(analysis, 'tool_batches').mean_calls_per_batch).toBeCloseTo(calls.length / batches.size, 9);

    // A turn runs from its model_request to its last model_response, model_error or tool result.
    const starts = new Map(events.filter((e) => e.event === 'model_request').map((e) => [turnKey(e), e.ts]));
    const ends = new Map<string, number>();
    for (const e of events) if (['model_response', 'model_error', 'tool_success', 'tool_failure'].includes(e.event)) ends.set(turnKey(e), Math.max(ends.get(turnKey(e)) ?? 0, e.ts));
    const spans = [...starts].filter(([k]) => ends.has(k)).map(([k, t0]) => (ends.get(k) as number) - t0);
    const time = one(analysis, 'turn_time');
    expect(time).toMatchObject({ turns: spans.length, timed_turns: spans.length, max_ms_of_timed_turns: Math.max(...spans) });
    expect(time.p50_ms_of_timed_turns).toBeCloseTo(interpolated(spans, 0.5), 9);
    expect(time.p95_ms_of_timed_turns).toBeCloseTo(interpolated(spans, 0.95), 9);
    await expectRendered(analysis, ['Tool output per tool', 'Tool batches and parallelism', 'Whole-turn time']);
  });

  it('count tool_search, what it loaded, the loaded tool called, and the bytes deferring saved, from a real run', async () => {
    const dir = tempDir();
    const trace = join(dir, 'run.jsonl');
    const run = await cli(['run', 'suites/faults/pipeline-deferred-blind-call.yaml', '--filter', 'pipeline-003-', '--out', trace]);
    expect(run.code, run.stderr).toBe(0);
    const events = readEvents(trace);
    const requests = events.filter((e) => e.event === 'model_request');
    const searches = events.filter((e) => e.event === 'tool_call' && e.tool === 'tool_search');
    expect(searches).toHaveLength(1);
    const search = searches[0] as Ev;
    // The search loaded sleep: the next request carries one more definition; sleep was called after it.
    const next = requests.find((r) => r.session_id === search.session_id && r.turn === search.turn + 1) as Ev;
    const before = requests.find((r) => r.session_id === search.session_id && r.turn === search.turn) as Ev;
    const loaded = (next.tools_count as number) - (before.tools_count as number);
    const calledAfter = new Set(events.filter((e) => e.event === 'tool_call' && e.tool === 'sleep' && e.turn > search.turn).map((e) => e.tool));
    const saved = requests.reduce((n, r) => n + (r.deferred_tools_bytes as number), 0);
    expect(loaded).toBe(1);
    expect(saved).toBeGreaterThan(0);
    // Before loading, each request left sleep's definition out; after, nothing.
    expect(requests.filter((r) => r.turn > search.turn).every((r) => r.deferred_tools_bytes === 0)).toBe(true);

    const analysis = await analyzeTraces([trace], { cache: { enabled: false } });
    expect(one(analysis, 'tool_search')).toMatchObject({
      searches: 1, search_turns: 1, search_turns_that_loaded: 1, hit_rate_of_search_turns: 1, tools_loaded: loaded, loaded_tools_called: calledAfter.size, called_rate_of_loaded: calledAfter.size / loaded,
    });
    expect(one(analysis, 'deferred_loading')).toMatchObject({
      requests_measured: requests.length,
      definition_bytes_saved: saved,
      searches: 1,
      search_turns: 1,
      request_bytes_spent_on_search_turns: next.request_bytes,
      net_benefit_bytes: saved - (next.request_bytes as number),
    });
    await expectRendered(analysis, ['searches, turns whose search loaded a tool', 'Deferred loading: definition bytes saved']);
  });
});

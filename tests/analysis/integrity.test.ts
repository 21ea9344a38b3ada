/**
 * The green-but-broken checks (sql/integrity.sql) on the edges their cheap
 * pre-filters must not change: which batches count as "one duration for 3+
 * calls", which sessions' prefixes changed, which tool lists collide.
 */
import { describe, expect, it } from 'vitest';
import { analyzeTraces } from '../../src/analysis/analyze.js';
import { findSection } from '../../src/analysis/report-model.js';
import { prefixCollisions } from '../../src/events/tool-prefix-rule.js';
import { ev, line, tempDir, writeTrace } from './fixtures.js';

type Fields = Record<string, unknown>;

/** A batch of calls in session `s`, one per duration (null: the source recorded none). */
function batch(s: string, batchNo: number, durations: (number | null)[], f: Fields = {}): Fields[] {
  return durations.flatMap((d, i) => {
    const id = `${s}-b${batchNo}-${i}`;
    return [ev.toolCall(s, 'read', id, { batch: batchNo, ...f }), { ...ev.toolSuccess(s, 'read', id, d ?? 0), duration_ms: d }];
  });
}

async function integrity(events: Fields[]): Promise<Record<string, unknown> | undefined> {
  const path = writeTrace(tempDir(), 'trace.jsonl', events.map(line));
  const analysis = await analyzeTraces([path], { cache: { enabled: false } });
  expect(analysis.load.quarantined).toEqual([]);
  return findSection(analysis, 'integrity')?.rows[0];
}

describe('green-but-broken checks', () => {
  it('counts a batch only when every measured call in it has the one duration', async () => {
    const row = await integrity([
      ev.sessionStart('a'),
      ...batch('a', 1, [7, 7, 7]), // counted
      ...batch('a', 2, [9, 9, 9, 12]), // one call differs: not counted
      ...batch('a', 3, [5, 5, null, 5]), // a call with no duration is not measured: still counted
      ...batch('a', 4, [1, 1, 1]), // 1 ms or less is a plausible real time
      ...batch('a', 5, [8, 8]), // two calls only
      ...batch('a', 6, [4, 4, null]), // two measured calls only
      ev.sessionStart('b'),
      ...batch('b', 1, [8]), // the same duration in another session does not make a batch
      ...batch('b', 2, [9, 9]), // nor does the same duration in another batch of the session
      ...batch('b', 3, [9]),
    ]);
    expect(row?.batches_with_identical_durations).toBe(2);
  });

  it('counts a batch copied twice (the same run read twice) once', async () => {
    const events = [ev.sessionStart('a'), ...batch('a', 1, [6, 6, 6])];
    expect((await integrity([...events, ...events]))?.batches_with_identical_durations).toBe(1);
  });

  it('counts a session whose prefix changed under one tools_count, once, and not one whose tool count changed', async () => {
    const req = (s: string, turn: number, prefix_hash: string, tools_count = 2) => ({ ...ev.modelRequest(s, turn), prefix_hash, tools_count });
    const row = await integrity([
      ev.sessionStart('a'), req('a', 1, 'h1'), req('a', 2, 'h2'), req('a', 3, 'h3'), // changed: one session
      ev.sessionStart('b'), req('b', 1, 'h1'), req('b', 2, 'h9', 3), // a tool joined: not a cache bust
      ev.sessionStart('c'), req('c', 1, 'h1'), req('c', 2, 'h1'),
    ]);
    expect(row?.sessions_with_prefix_changes).toBe(1);
  });

  it('counts sessions whose resident and deferred tools share a 4-character prefix, per session', async () => {
    const start = (s: string, tools: string[], deferred: string[]) => ev.sessionStart(s, [], { tools, deferred_tools: deferred });
    const row = await integrity([
      start('a', ['read', 'mcp__web__search_all', 'mcp__web__search_one'], ['mcp__web__search_one']), // one server, "search_": collides
      start('b', ['read', 'mcp__web__search_all', 'mcp__web__search_one'], ['mcp__web__search_one']), // same lists, another session
      start('c', ['read', 'write'], ['write']), // the deferred tool only
      start('d', ['read', 'mcp__x__read_more'], []), // nothing deferred
    ]);
    expect(row?.sessions_with_prefix_collisions).toBe(2);
  });

  it('applies the one rule lint-tools applies, on MCP names in both directions', async () => {
    const start = (s: string, resident: string, deferred: string) => ev.sessionStart(s, [], { tools: [resident, deferred], deferred_tools: [deferred] });
    const pairs: Array<[string, string]> = [
      ['mcp__docs__search_all', 'mcp__web__search_one'], // two servers: compared after mcp__ ("docs" / "web_"): no collision
      ['mcp__files__echo', 'mcp__filesystem__echo'], // two servers sharing "files" after mcp__: the model can land on either
      ['read', 'mcp__x__read_more'], // a built-in and an MCP tool: compared whole, no collision
      ['mcp__gh__get_issue', 'mcp__gh__get_pull'], // one server: "get_" after mcp__gh__
      ['enter_plan_mode', 'enter_worktree'], // built-ins: "enter_"
      ['glob', 'grep'],
    ];
    for (const [i, [resident, deferred]] of pairs.entries()) {
      const row = await integrity([start(`p${i}`, resident, deferred)]);
      const lint = prefixCollisions([resident], [deferred]).length;
      expect([resident, deferred, row?.sessions_with_prefix_collisions]).toEqual([resident, deferred, lint]);
    }
    // Both directions of the old disagreement, pinned: the rule says these two collide and those two do not.
    expect(prefixCollisions(['mcp__files__echo'], ['mcp__filesystem__echo'])).toHaveLength(1);
    expect(prefixCollisions(['read'], ['mcp__x__read_more'])).toHaveLength(0);
  });
});

describe('tool definitions', () => {
  it('counts a tool set sent with two payload sizes on first requests, leaving out sessions with MCP servers and later turns', async () => {
    const first = (s: string, tools_bytes: number, turn = 1) => ({ ...ev.modelRequest(s, turn), tools_count: 2, tools_bytes });
    const mcp = (s: string) => ({ ...ev.modelRequest(s), event: 'mcp_server', turn: undefined, server: 'docs', state: 'connected', duration_ms: 5, attempt: 1 });
    const strip = ({ turn: _t, provider: _p, model: _m, stream: _s, messages_count: _c, tools_count: _tc, tools_bytes: _tb, request_bytes: _rb, prefix_hash: _h, ...rest }: Record<string, unknown>) => rest;
    const row = await integrity([
      ev.sessionStart('a'), first('a', 100), first('a', 999, 2), // a later turn's size is not a definition
      ev.sessionStart('b'), first('b', 100),
      ev.sessionStart('c'), first('c', 120), strip(mcp('c')), // an MCP session's first request may differ
    ]);
    expect(row?.tool_sets_with_differing_definitions).toBe(0);
    const differing = await integrity([ev.sessionStart('a'), first('a', 100), ev.sessionStart('b'), first('b', 120)]);
    expect(differing?.tool_sets_with_differing_definitions).toBe(1);
  });
});

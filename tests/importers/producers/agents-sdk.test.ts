import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { cli, readEvents, scratch } from '../helpers.js';
import { runAgentsSdk } from './agents-sdk-run.js';

describe('OpenAI Agents SDK (JS) traces, imported from its real trace processor output', () => {
  it('gives back the run: one session, its model calls with their turns\' tokens, the tool calls and the thrown tool, and the run\'s token total', { timeout: 60_000 }, async () => {
    const run = await runAgentsSdk();
    expect(run.truth).toEqual({ requests: 2, inputTokens: 514, outputTokens: 34, cachedTokens: 64, toolCalls: 2 });
    const dir = scratch();
    const file = join(dir, 'agents.jsonl');
    writeFileSync(file, run.lines.map((l) => `${l}\n`).join(''));
    const out = join(dir, 'events.jsonl');
    const r = await cli(['import', 'openai-agents', file, '--out', out]);
    expect(r.code, r.stderr).toBe(0);
    expect(r.stdout).toContain(`openai-agents (1 file): ${run.lines.length} items = ${run.lines.length} used + 0 skipped + 0 quarantined`);
    const events = readEvents(out);
    expect(events.filter((e) => e.event === 'session_start').map((e) => e.task_id)).toEqual(['weather workflow']);
    // OpenAI counts cached tokens inside input_tokens; the contract keeps them apart: 214 - 64 and 300.
    expect(events.filter((e) => e.event === 'model_response').map((e) => [e.turn, e.input_tokens, e.cache_read_tokens, e.output_tokens])).toEqual([
      [1, 150, 64, 25],
      [2, 300, 0, 9],
    ]);
    expect(events.filter((e) => e.event === 'tool_success').map((e) => e.tool)).toEqual(['get_weather']);
    expect(events.filter((e) => e.event === 'tool_failure').map((e) => [e.tool, e.failure_kind])).toEqual([['get_weather', 'tool_error']]);
    expect(events.at(-1)).toMatchObject({ event: 'session_end', turns: run.truth.requests, input_tokens: run.truth.inputTokens - run.truth.cachedTokens, output_tokens: run.truth.outputTokens, cache_read_tokens: run.truth.cachedTokens });
  });
});

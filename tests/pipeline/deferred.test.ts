/**
 * Deferred tools through the real SDK + msw: left out of the tools sent,
 * loaded by tool_search for later turns (appended, so the earlier
 * definitions stay a stable prefix), and a blind call gets the one-step fix.
 */
import { afterAll, describe, expect, it } from 'vitest';
import { createRegistry } from '../../src/harness/tools/builtin.js';
import { createToolSearchTool } from '../../src/harness/tools/tool-search.js';
import { stopMockHub } from '../../src/mock/msw-hub.js';
import { runPipeline, type Wire } from './run-pipeline.js';

afterAll(() => stopMockHub());

const registry = () => {
  const r = createRegistry(['read', 'ls', 'sleep', 'explode'], { deferred: ['sleep', 'explode'] });
  r.register(createToolSearchTool(r));
  return r;
};
const toolNames = (run: Awaited<ReturnType<typeof runPipeline>>, i: number) => run.session.requests[i]!.request!.tools.map((t) => t.name);

describe.each(['anthropic', 'openai'] as Wire[])('deferred tools (%s wire)', (wire) => {
  it('sends deferred tools only after tool_search loads them, appended after the resident ones', async () => {
    const run = await runPipeline(
      [
        { tool_use: [{ name: 'tool_search', input: { query: 'wait milliseconds' } }] },
        { tool_use: [{ name: 'sleep', input: { ms: 1 } }] },
        { text: 'done' },
      ],
      { wire, registry },
    );
    expect(toolNames(run, 0)).toEqual(['read', 'ls', 'tool_search']);
    expect(toolNames(run, 1)).toEqual(['read', 'ls', 'tool_search', 'sleep']);
    expect(run.results()[0]!.content).toMatch(/Loaded 1 tool.*\n- sleep:/);
    expect(run.of('tool_call')[1]).toMatchObject({ tool: 'sleep', source: 'deferred' });
    expect(run.of('tool_success').map((s) => s.tool)).toEqual(['tool_search', 'sleep']);
    const hashes = run.of('model_request').map((r) => r.prefix_hash);
    expect(hashes[0]).not.toBe(hashes[1]); // the tool set changed once, at activation
    expect(hashes[1]).toBe(hashes[2]);
  });

  it('answers a blind call of an unloaded tool with "exists but not loaded — call tool_search with select:NAME"', async () => {
    const run = await runPipeline([{ tool_use: [{ name: 'sleep', input: { seconds: 1 } }] }, { text: 'done' }], { wire, registry });
    expect(run.of('tool_failure')[0]).toMatchObject({ tool: 'sleep', failure_kind: 'invalid_input', error_code: 'schema_not_loaded' });
    expect(run.results()[0]!.content).toMatch(/exists but is not loaded.*select:sleep/s);
  });
});

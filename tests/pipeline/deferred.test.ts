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

  it('does not run an unloaded tool called blind with arguments that happen to be valid', async () => {
    const exploded: string[] = [];
    const run = await runPipeline([{ tool_use: [{ name: 'sleep', input: { ms: 1 } }] }, { text: 'done' }], {
      wire,
      registry: () => {
        const r = registry();
        const sleep = r.get('sleep')!;
        // Records whether the body ran: the schema was never sent, so it must not.
        const original = sleep.execute.bind(sleep);
        sleep.execute = async (input, context) => (exploded.push('ran'), original(input, context));
        return r;
      },
    });
    expect(exploded).toEqual([]);
    expect(run.of('tool_success')).toEqual([]);
    expect(run.of('tool_failure')[0]).toMatchObject({ tool: 'sleep', failure_kind: 'invalid_input', error_code: 'schema_not_loaded' });
    expect(run.results()[0]!.content).toMatch(/exists but is not loaded.*tool_search.*select:sleep/s);
  });

  it('marks unloaded deferred tools as such in the not-found answer, apart from the callable ones', async () => {
    const run = await runPipeline([{ tool_use: [{ name: 'sleepy', input: {} }] }, { text: 'done' }], { wire, registry });
    const text = run.results()[0]!.content;
    expect(text).toMatch(/Available tools: read, ls, tool_search\./);
    expect(text).toMatch(/Deferred tools, not loaded yet \(call tool_search with query "select:NAME" before calling one\): explode, sleep\./);
  });

  it('says in tool_search\'s own text that an unloaded call is answered with an error, not run', () => {
    const r = createRegistry(['read', 'sleep'], { deferred: ['sleep'] });
    const usage = createToolSearchTool(r).usage ?? '';
    expect(usage).toMatch(/does not run, it is answered with an error telling you to load it/);
  });
});

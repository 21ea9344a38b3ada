/**
 * OpenAI strict tool use sends every optional field, as `null` when absent
 * (the strict dialect widens each optional property to a `null` union). The
 * real `openai` SDK against the msw mock, on Chat Completions and Responses:
 * such a call runs as if the field were absent, and the model is never told
 * to "send offset as an integer" when its schema said integer or null.
 */
import { afterAll, describe, expect, it } from 'vitest';
import { stopMockHub } from '../../src/mock/msw-hub.js';
import { runPipeline, type Wire } from './run-pipeline.js';

afterAll(() => stopMockHub());

const files = { 'a.txt': 'alpha\nbeta\ngamma\n' };

describe.each(['openai', 'responses'] as Wire[])('strict-mode nulls (%s wire, real openai SDK)', (wire) => {
  it('runs a read whose optional offset and limit are null, as if they were absent', async () => {
    const run = await runPipeline(
      [{ tool_use: [{ name: 'read', input: { file_path: 'a.txt', offset: null, limit: null } }] }, { text: 'done' }],
      { wire, strictTools: true, files, tools: ['read'] },
    );
    // What the model was given: strict, offset may be null.
    const sent = run.session.requests[0]!.request!.tools.find((t) => t.name === 'read')!;
    expect(JSON.stringify(sent)).toMatch(/"offset":\{[^}]*"type":\["integer","null"\]/);
    expect(run.of('tool_failure')).toEqual([]);
    expect(run.of('tool_success').map((e) => e.tool)).toEqual(['read']);
    expect(run.results()[0]!.content).toContain('gamma');
  });

  it('still refuses a null in a required field, naming the field', async () => {
    const run = await runPipeline([{ tool_use: [{ name: 'read', input: { file_path: null, offset: null, limit: null } }] }, { text: 'done' }], {
      wire,
      strictTools: true,
      files,
      tools: ['read'],
    });
    expect(run.of('tool_failure')[0]).toMatchObject({ tool: 'read', failure_kind: 'invalid_input' });
    const text = run.results()[0]!.content;
    expect(text).toMatch(/file_path: expected string, received null/);
    // Never a complaint about the optional nulls the strict schema allows.
    expect(text).not.toMatch(/offset|limit/);
  });

  it('keeps judging a wrong non-null value of an optional field', async () => {
    const run = await runPipeline([{ tool_use: [{ name: 'read', input: { file_path: 'a.txt', offset: 'two', limit: null } }] }, { text: 'done' }], {
      wire,
      strictTools: true,
      files,
      tools: ['read'],
    });
    expect(run.of('tool_failure')[0]).toMatchObject({ tool: 'read', failure_kind: 'invalid_input' });
    expect(run.results()[0]!.content).toMatch(/offset: expected number, received string/);
  });
});

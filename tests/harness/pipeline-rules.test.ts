/**
 * The pipeline rules of the spine (docs/harness-rules.md, docs/harness-rules.md#the-tool-pipeline, docs/harness-rules.md#telemetry), through the real
 * SDK clients and msw on both wires.
 */
import { describe, expect, it } from 'vitest';
import { ModelCallError, type Message } from '../../src/providers/types.js';
import { mockModel } from '../../src/mock/msw-hub.js';
import { everyToolUseAnswered, lost, runScripted, WIRES } from './scripted.js';

function resultText(messages: Message[], index = 0): string {
  const results = messages.flatMap((m) => (m.role === 'user' ? m.content.filter((b) => b.type === 'tool_result') : []));
  const r = results[index];
  return r && r.type === 'tool_result' ? r.content : '';
}

describe.each(WIRES)('pipeline rules over the %s wire', (wire) => {
  it('answers a hallucinated tool with an error listing the tools that exist, and logs it as <unknown>', async () => {
    const run = await runScripted([{ tool_use: [{ name: 'find_file', input: {} }] }, { text: 'ok' }], { wire, tools: ['read', 'glob'] });
    expect(resultText(run.result.messages)).toMatch(/does not exist\. Available tools: read, glob/);
    expect(run.of('tool_call')[0]).toMatchObject({ tool: '<unknown>', requested_tool: 'find_file', concurrency_safe: false });
    expect(run.of('tool_failure')[0]).toMatchObject({ tool: '<unknown>', failure_kind: 'not_found' });
    expect(run.result.stop).toBe('end_turn');
  });

  it('rejects invalid input with field-by-field advice from the schema the model was shown, without running the tool', async () => {
    const run = await runScripted([{ tool_use: [{ name: 'write', input: { file_path: 7, content: 'x' } }] }, { text: 'ok' }], { wire });
    const text = resultText(run.result.messages);
    // The live path gives describeIssues' advice (docs/harness-rules.md#two-path-divergence: the same text the registry's validation gives, not a second wording).
    expect(text).toMatch(/^Invalid input for write, so it was not run\.\nfile_path: expected string, received number — send file_path as a string\./);
    expect(text).toMatch(/call write again/);
    expect(run.of('tool_failure')[0]).toMatchObject({ failure_kind: 'invalid_input', error_code: 'invalid_type' });
  });

  it('keeps a tool that throws (exception) apart from a tool that reports an error (tool_error)', async () => {
    const run = await runScripted(
      [{ tool_use: [{ name: 'explode', input: {} }, { name: 'bash', input: { command: 'exit 3' } }] }, { text: 'ok' }],
      { wire, tools: ['explode', 'bash'] },
    );
    const failures = run.of('tool_failure');
    expect(failures.map((f) => [f.tool, f.failure_kind, f.error_code])).toEqual([
      ['explode', 'exception', 'TypeError'],
      ['bash', 'tool_error', 'exit_3'],
    ]);
    expect(resultText(run.result.messages, 0)).toMatch(/internal error \(TypeError/);
    expect(lost(run)).toBe(0);
  });

  it('times out one slow call on its own timeout and lets the next call run', async () => {
    const run = await runScripted(
      [{ tool_use: [{ name: 'sleep', input: { ms: 5_000 } }, { name: 'sleep', input: { ms: 1 } }] }, { text: 'ok' }],
      { wire, tools: ['sleep'], config: { toolTimeoutMs: 100 } },
    );
    expect(run.of('tool_failure')).toMatchObject([{ failure_kind: 'timeout', error_code: 'timeout' }]);
    expect(run.of('tool_success')).toHaveLength(1);
    expect(run.result.stop).toBe('end_turn');
  });

  it('records each call with its own measured duration, not a batch average', async () => {
    const run = await runScripted(
      [{ tool_use: [{ name: 'sleep', input: { ms: 20 } }, { name: 'sleep', input: { ms: 220 } }] }, { text: 'ok' }],
      { wire, tools: ['sleep'] },
    );
    const [fast, slow] = run.of('tool_success').map((e) => e.duration_ms);
    expect(fast).toBeGreaterThanOrEqual(15);
    expect(fast).toBeLessThan(180);
    expect(slow).toBeGreaterThanOrEqual(200);
  });

  it('says explicitly when a tool produced no output', async () => {
    const run = await runScripted([{ tool_use: [{ name: 'bash', input: { command: 'true' } }] }, { text: 'ok' }], { wire });
    expect(resultText(run.result.messages)).not.toBe('');
    expect(run.of('tool_success')[0]).toMatchObject({ empty: true });
  });

  it('gets the real 400 from the mock when a tool_result is dropped (the protocol invariant is checked on the wire)', async () => {
    const run = await runScripted(
      [{ tool_use: [{ name: 'ls', input: {} }, { name: 'ls', input: { path: '.' } }] }, { text: 'ok' }],
      { wire },
    );
    expect(everyToolUseAnswered(run)).toBe(true);
    // Replay the second request with one result missing, as a buggy harness would send it.
    const messages = structuredClone(run.result.messages.slice(0, 3));
    const results = messages[2]!;
    results.content = results.content.slice(1);
    const { model, session } = mockModel([{ text: 'a' }, { text: 'b' }], { wire });
    try {
      const error = await model.complete({ messages, tools: [], maxTokens: 100 }).catch((e: unknown) => e);
      expect(error).toBeInstanceOf(ModelCallError);
      expect(error).toMatchObject({ kind: 'invalid_request', status: 400 });
      const expected = {
        anthropic: '`tool_use` ids were found without `tool_result` blocks immediately after',
        openai: "An assistant message with 'tool_calls' must be followed by tool messages responding to each 'tool_call_id'",
        responses: 'No tool output found for function call',
      };
      expect((error as Error).message).toContain(expected[wire]);
    } finally {
      session.close();
    }
  });
});

/**
 * The loop rules of docs/harness-rules.md, docs/harness-rules.md#stop-reasons, docs/harness-rules.md#termination, docs/harness-rules.md#degeneration-fallbacks, each through the real
 * SDK clients and msw, on both wire formats.
 */
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { everyToolUseAnswered, lost, runScripted, WIRES } from './scripted.js';

describe.each(WIRES)('loop rules over the %s wire', (wire) => {
  it('continues on tool_use and sends every result of a turn in one following message', async () => {
    const run = await runScripted(
      [
        { tool_use: [{ name: 'ls', input: {} }, { name: 'read', input: { file_path: 'a.txt' } }] },
        { text: 'done' },
      ],
      { wire, files: { 'a.txt': 'hello\n' } },
    );
    expect(run.result.stop).toBe('end_turn');
    expect(run.result.turns).toBe(2);
    const second = run.session.requests[1]!.request!;
    const last = second.messages.at(-1)!;
    expect(last.role).toBe('user');
    expect(last.content.filter((b) => b.type === 'tool_result')).toHaveLength(2);
    expect(everyToolUseAnswered(run)).toBe(true);
    expect(lost(run)).toBe(0);
  });

  // The Responses wire has no stop reason: a completed response with function calls is a tool-use turn, so it cannot say this.
  it.skipIf(wire === 'responses')('runs a tool_use left pending on end_turn, and ends half done when the fall-through is off', async () => {
    const script = [
      { tool_use: [{ name: 'write', input: { file_path: 'out.txt', content: 'x' } }], stop_reason: 'end_turn' },
      { text: 'saved' },
    ];
    const on = await runScripted(script, { wire });
    expect(existsSync(join(on.workspace, 'out.txt'))).toBe(true);
    expect(on.of('defense_trigger').map((e) => e.defense)).toEqual(['end_turn_fallthrough']);

    const off = await runScripted(script, { wire, config: { disabledDefenses: ['end_turn_fallthrough'] } });
    expect(existsSync(join(off.workspace, 'out.txt'))).toBe(false);
    expect(off.result.turns).toBe(1);
  });

  it('never executes a tool call cut off by max_tokens; it answers it and lets the model retry', async () => {
    const script = [
      { tool_use: [{ name: 'write', input: { file_path: 'cut.txt', content: 'complete-looking' } }], stop_reason: 'max_tokens' },
      { rule: [{ when: { any_error: true, contains: 'cut off' }, then: { text: 'will retry smaller' } }] },
    ];
    const on = await runScripted(script, { wire });
    expect(existsSync(join(on.workspace, 'cut.txt'))).toBe(false);
    expect(on.of('tool_failure')).toMatchObject([{ failure_kind: 'invalid_input', error_code: 'cut_off' }]);
    expect(on.result.stop).toBe('end_turn');
    expect(lost(on)).toBe(0);

    // Guard off: the cut call runs — the failure the guard exists to prevent.
    const off = await runScripted(script, { wire, config: { disabledDefenses: ['cut_tool_call_guard'] } });
    expect(existsSync(join(off.workspace, 'cut.txt'))).toBe(true);
  });

  it('answers a tool call whose JSON arguments were cut mid-string without running it', async () => {
    const run = await runScripted(
      [
        { tool_use: [{ name: 'write', input: { file_path: 'r.md', content: 'a long report that was cut' } }], stop_reason: 'max_tokens', cut_tool_input: true },
        { text: 'ok' },
      ],
      { wire },
    );
    expect(existsSync(join(run.workspace, 'r.md'))).toBe(false);
    expect(run.of('tool_failure')).toHaveLength(1);
    expect(everyToolUseAnswered(run)).toBe(true);
  });

  it.each([null, 'weird_new_reason'])('fails closed on stop reason %s: nothing runs and the stop is attributed', async (reason) => {
    const script = [{ tool_use: [{ name: 'write', input: { file_path: 'w.txt', content: 'x' } }], stop_reason: reason }, { text: 'ok' }];
    const on = await runScripted(script, { wire });
    expect(on.result.stop).toBe('stop_reason_unhandled');
    expect(existsSync(join(on.workspace, 'w.txt'))).toBe(false);
    expect(on.of('model_response')[0]!.stop_class).toBe(reason === null ? 'null' : 'unknown');
    expect(on.of('tool_call')).toHaveLength(0);
    // Nothing ran, yet the history stays valid for a resume: the cut-short call has an error result.
    expect(on.result.messages.at(-1)).toMatchObject({ role: 'user', content: [{ type: 'tool_result', is_error: true }] });
    expect(everyToolUseAnswered(on)).toBe(true);

    const off = await runScripted(script, { wire, config: { disabledDefenses: ['stop_reason_fail_closed'] } });
    expect(existsSync(join(off.workspace, 'w.txt'))).toBe(true);
  });

  it('stops at max turns with every started call settled', async () => {
    const run = await runScripted([{ rule: [{ then: { tool_use: [{ name: 'ls', input: {} }] } }] }, { rule: [{ then: { tool_use: [{ name: 'ls', input: {} }] } }] }, { rule: [{ then: { tool_use: [{ name: 'ls', input: {} }] } }] }], {
      wire,
      config: { maxTurns: 3 },
    });
    expect(run.result.stop).toBe('max_turns');
    expect(run.result.turns).toBe(3);
    expect(run.of('tool_call')).toHaveLength(3);
    expect(lost(run)).toBe(0);
  });

  it('stops on the token budget', async () => {
    const turn = { tool_use: [{ name: 'ls', input: {} }], usage: { input_tokens: 100, output_tokens: 20 } };
    const run = await runScripted([turn, turn, turn, turn, { text: 'done' }], { wire, config: { tokenBudget: 250 } });
    expect(run.result.stop).toBe('token_budget');
    expect(run.result.turns).toBe(3);
  });

  it('on abort, stops the running tool, answers it, and attributes the stop to the abort', async () => {
    const controller = new AbortController();
    setTimeout(() => controller.abort('user'), 1000); // after the first model reply, even on a loaded machine
    const started = performance.now();
    const run = await runScripted([{ tool_use: [{ name: 'sleep', input: { ms: 20_000 } }] }, { text: 'never' }], {
      wire,
      tools: ['sleep'],
      signal: controller.signal,
    });
    expect(performance.now() - started).toBeLessThan(5_000);
    expect(run.result.stop).toBe('aborted');
    expect(run.of('tool_failure')).toMatchObject([{ tool: 'sleep', failure_kind: 'aborted' }]);
    expect(lost(run)).toBe(0);
  });
});

describe('loop defense accounting', () => {
  it('counts one evaluation of each loop guard per model response and a trigger only when it fires', async () => {
    const run = await runScripted(
      [{ tool_use: [{ name: 'ls', input: {} }], stop_reason: 'end_turn' }, { tool_use: [{ name: 'ls', input: {} }] }, { text: 'done' }],
      { wire: 'anthropic' },
    );
    const stats = Object.fromEntries(run.of('defense_stats').map((s) => [s.defense, [s.evaluated, s.triggered]]));
    expect(stats).toMatchObject({
      end_turn_fallthrough: [3, 1],
      cut_tool_call_guard: [3, 0],
      stop_reason_fail_closed: [3, 0],
    });
  });
});

import { describe, expect, it } from 'vitest';
import type { Message } from '../providers/types.js';
import { conditionHolds, issuedWithId, runScript } from './engine.js';
import { ModelScript } from './script.js';

const user = (text: string): Message => ({ role: 'user', content: [{ type: 'text', text }] });
const calls = (...names: string[]): Message => ({
  role: 'assistant',
  content: names.map((name, i) => ({ type: 'tool_use', id: `id${i}`, name, input: {} })),
});
const results = (...r: Array<[string, string, boolean]>): Message => ({
  role: 'user',
  content: r.map(([id, content, isError]) => ({ type: 'tool_result', tool_use_id: id, content, is_error: isError })),
});

function reply(script: unknown, messages: Message[]) {
  const result = runScript(ModelScript.parse(script), messages);
  if (!result.ok) throw new Error(result.error.message);
  return result.reply;
}

describe('the scripted engine', () => {
  it('picks the turn from the number of assistant messages in the request', () => {
    const script = [{ text: 'one', tool_use: [{ name: 'a' }] }, { text: 'two' }];
    expect(reply(script, [user('go')]).content[0]).toEqual({ type: 'text', text: 'one' });
    const second = reply(script, [user('go'), calls('a'), results(['id0', 'x', false])]);
    expect([second.turn, second.content]).toEqual([2, [{ type: 'text', text: 'two' }]]);
  });

  it('is deterministic: the same request gets the same reply', () => {
    const script = [{ tool_use: [{ name: 'a', input: { x: 1 } }, { name: 'b' }] }];
    expect(reply(script, [user('go')])).toEqual(reply(script, [user('go')]));
    expect(reply(script, [user('go')]).content.map((b) => (b.type === 'tool_use' ? b.id : ''))).toEqual(['toolu_mock_1_0', 'toolu_mock_1_1']);
  });

  it('uses the id prefix it is given and keeps fixed ids', () => {
    const result = runScript(ModelScript.parse([{ tool_use: [{ name: 'a' }, { name: 'b', id: 'mine' }] }]), [user('go')], { toolIdPrefix: 'call_mock' });
    expect(result.ok && result.reply.content.map((b) => (b.type === 'tool_use' ? b.id : ''))).toEqual(['call_mock_1_0', 'mine']);
  });

  it('defaults the stop reason from the content, keeps explicit null, and stops cut calls with max_tokens', () => {
    expect(reply([{ tool_use: [{ name: 'a' }] }], [user('go')]).stopReason).toBe('tool_use');
    expect(reply([{ text: 'hi' }], [user('go')]).stopReason).toBe('end_turn');
    expect(reply([{ tool_use: [{ name: 'a' }], stop_reason: null }], [user('go')]).stopReason).toBeNull();
    expect(reply([{ tool_use: [{ name: 'a' }], stop_reason: 'end_turn' }], [user('go')]).stopReason).toBe('end_turn');
    const cut = reply([{ tool_use: [{ name: 'a' }], cut_tool_input: true }], [user('go')]);
    expect([cut.stopReason, cut.cutToolInput]).toEqual(['max_tokens', true]);
  });

  it('carries raw_arguments and usage through', () => {
    const r = reply([{ tool_use: [{ name: 'a', raw_arguments: '{"x' }], usage: { input_tokens: 7, cache_read_tokens: 3 } }], [user('go')]);
    expect(r.content[0]).toMatchObject({ rawArguments: '{"x' });
    expect(r.usage).toEqual({ input_tokens: 7, output_tokens: 20, cache_read_tokens: 3, cache_write_tokens: 0 });
  });

  it('reports an exhausted script with the turn and the script length', () => {
    const result = runScript(ModelScript.parse([{ text: 'a' }]), [user('go'), { role: 'assistant', content: [] }, user('more')]);
    expect(result).toEqual({
      ok: false,
      error: { code: 'script_exhausted', message: 'mock script exhausted: request for turn 2 but the script has 1 turns' },
    });
  });

  it('reports a rule turn where no branch matches', () => {
    const script = [{ tool_use: [{ name: 'a' }] }, { rule: [{ when: { any_error: true }, then: { text: 'x' } }] }];
    const result = runScript(ModelScript.parse(script), [user('go'), calls('a'), results(['id0', 'fine', false])]);
    expect(result.ok).toBe(false);
    expect(!result.ok && result.error.code).toBe('no_rule_matched');
  });
});

describe('rule conditions', () => {
  const history = [user('go'), calls('read', 'bash'), results(['id0', 'file text', false], ['id1', 'exit 1: boom', true])];

  it('holds without a condition', () => {
    expect(conditionHolds(undefined, history)).toBe(true);
  });

  it('checks any_error both ways', () => {
    expect(conditionHolds({ any_error: true }, history)).toBe(true);
    expect(conditionHolds({ any_error: false }, history)).toBe(false);
  });

  it('narrows to the results of one tool, looked up from the preceding assistant message', () => {
    expect(conditionHolds({ any_error: true, tool: 'read' }, history)).toBe(false);
    expect(conditionHolds({ any_error: true, tool: 'bash' }, history)).toBe(true);
    expect(conditionHolds({ contains: 'boom', tool: 'read' }, history)).toBe(false);
    expect(conditionHolds({ contains: 'boom', tool: 'bash' }, history)).toBe(true);
  });

  it('fails a tool condition when that tool was not called', () => {
    expect(conditionHolds({ tool: 'write' }, history)).toBe(false);
    expect(conditionHolds({ tool: 'read' }, history)).toBe(true);
  });

  it('looks only at the last user message', () => {
    const later = [...history, { role: 'assistant', content: [{ type: 'text', text: 'ok' }] } as Message, user('next')];
    expect(conditionHolds({ any_error: true }, later)).toBe(false);
    expect(conditionHolds({ contains: 'file' }, later)).toBe(false);
  });

  it('fills {call_id} with the id the call is issued under, again for a re-issue, and leaves out a comma for `malformed`', () => {
    const script = [{ tool_use: [{ name: 'write', input: { path: 'lab-{call_id}.txt', content: 'x' }, malformed: true }] }];
    const [call] = reply(script, [user('go')]).content;
    if (call?.type !== 'tool_use') throw new Error('no call');
    expect([call.id, call.input, call.rawArguments]).toEqual(['toolu_mock_1_0', { path: 'lab-toolu_mock_1_0.txt', content: 'x' }, '{"path": "lab-toolu_mock_1_0.txt" "content": "x"}']);
    expect(() => JSON.parse(call.rawArguments!)).toThrow();
    // A broken attempt's call (another id) names another file: what it leaves is its own.
    const again = issuedWithId(call, 'toolu_mock_1_0_cut1');
    expect([again.input['path'], again.rawArguments]).toEqual(['lab-toolu_mock_1_0_cut1.txt', '{"path": "lab-toolu_mock_1_0_cut1.txt" "content": "x"}']);
    // Without the placeholder nothing is kept on the side.
    const [plain] = reply([{ tool_use: [{ name: 'read', input: { path: 'a' } }] }], [user('go')]).content;
    expect(plain).toEqual({ type: 'tool_use', id: 'toolu_mock_1_0', name: 'read', input: { path: 'a' } });
  });
});

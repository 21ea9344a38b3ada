/** The Responses wire's own rules: server-side state, reasoning items, SSE event names, as the real API has them. */
import { describe, expect, it } from 'vitest';
import { respond } from './respond.js';
import { ResponseStore } from './response-store.js';
import { ModelScript } from './script.js';

const tools = [{ type: 'function', name: 'read', parameters: { type: 'object' }, strict: false }];
const script = ModelScript.parse([{ reasoning: 'Read it first.', tool_use: [{ name: 'read', input: { path: 'a' } }] }, { text: 'done' }]);

function turn(store: ResponseStore, request: Record<string, unknown>) {
  const out = respond({ wire: 'responses', bodyText: JSON.stringify({ model: 'm', tools, ...request }), script, sessionId: 's', store });
  const body = out.reply.chunks ? {} : (JSON.parse(out.reply.body) as Record<string, unknown>);
  return { out, body: body as Record<string, unknown> & { error?: { message: string } } };
}

describe('the Responses wire', () => {
  it('emits a reasoning item before the function_call, with call_id as the tool id', () => {
    const { body } = turn(new ResponseStore(), { input: 'read a' });
    expect(body).toMatchObject({ object: 'response', status: 'completed', id: 'resp_mock_s_1' });
    expect((body['output'] as Array<{ type: string }>).map((i) => i.type)).toEqual(['reasoning', 'function_call']);
    expect(body['output']).toContainEqual(expect.objectContaining({ type: 'function_call', call_id: 'call_mock_1_0', name: 'read', arguments: '{"path":"a"}' }));
  });

  it('continues a stored response from previous_response_id: only the outputs are sent, the history is the server\'s', () => {
    const store = new ResponseStore();
    const first = turn(store, { input: 'read a' });
    const second = turn(store, { previous_response_id: first.body['id'], input: [{ type: 'function_call_output', call_id: 'call_mock_1_0', output: 'contents' }] });
    expect(second.out.reply.status).toBe(200);
    expect(second.out.turn).toBe(2);
    expect(second.out.request?.messages.map((m) => m.role)).toEqual(['user', 'assistant', 'user']);
    expect(second.body['previous_response_id']).toBe('resp_mock_s_1');
  });

  it('answers a continuation that forgets the pending call with the real 400', () => {
    const store = new ResponseStore();
    const first = turn(store, { input: 'read a' });
    const forgot = turn(store, { previous_response_id: first.body['id'], input: 'and?' });
    expect(forgot.out.reply.status).toBe(400);
    expect(forgot.body.error?.message).toBe('No tool output found for function call call_mock_1_0.');
  });

  it('does not keep a response sent with store: false', () => {
    const store = new ResponseStore();
    const first = turn(store, { input: 'read a', store: false });
    expect(turn(store, { previous_response_id: first.body['id'], input: 'x' }).body.error?.message).toBe(`Previous response with id '${String(first.body['id'])}' not found.`);
  });

  it('requires the reasoning item when a function_call is sent back by its id, as the API does for reasoning models', () => {
    const store = new ResponseStore();
    const { body } = turn(store, { input: 'read a', store: false });
    const [reasoning, call] = body['output'] as Array<Record<string, unknown>>;
    const output = { type: 'function_call_output', call_id: 'call_mock_1_0', output: 'contents' };
    const without = turn(store, { input: [{ role: 'user', content: 'read a' }, call, output] });
    expect(without.body.error?.message).toBe(`Item '${String(call!['id'])}' of type 'function_call' was provided without its required 'reasoning' item: '${String(reasoning!['id'])}'.`);
    expect(turn(store, { input: [{ role: 'user', content: 'read a' }, reasoning, call, output] }).out.reply.status).toBe(200);
    // Without ids (the stateless way, as faultline's adapter sends them) no reasoning item is needed.
    const { id: _drop, ...anonymous } = call!;
    expect(turn(store, { input: [{ role: 'user', content: 'read a' }, anonymous, output] }).out.reply.status).toBe(200);
  });

  it('streams with the API event names, each with an event line and a sequence number, ending in response.completed', () => {
    const { out } = turn(new ResponseStore(), { input: 'read a', stream: true });
    const events = (out.reply.chunks ?? []).map((c) => ({ event: /^event: (.*)$/m.exec(c)?.[1], data: JSON.parse(/^data: (.*)$/m.exec(c)?.[1] ?? '{}') }));
    expect(events.every((e) => e.event === e.data.type)).toBe(true);
    expect(events.map((e) => e.data.sequence_number)).toEqual(events.map((_, i) => i));
    const names = [...new Set(events.map((e) => e.event))];
    expect(names).toEqual([
      'response.created',
      'response.in_progress',
      'response.output_item.added',
      'response.reasoning_summary_part.added',
      'response.reasoning_summary_text.delta',
      'response.reasoning_summary_text.done',
      'response.reasoning_summary_part.done',
      'response.output_item.done',
      'response.function_call_arguments.delta',
      'response.function_call_arguments.done',
      'response.completed',
    ]);
  });

  it('ends a max_tokens cut as response.incomplete with max_output_tokens and the call incomplete', () => {
    const cut = ModelScript.parse([{ tool_use: [{ name: 'read', input: { path: 'a-long-path.txt' } }], cut_tool_input: true }]);
    const out = respond({ wire: 'responses', bodyText: JSON.stringify({ model: 'm', tools, input: 'x' }), script: cut, sessionId: 's' });
    const body = JSON.parse(out.reply.body);
    expect(body).toMatchObject({ status: 'incomplete', incomplete_details: { reason: 'max_output_tokens' } });
    expect(body.output[0]).toMatchObject({ type: 'function_call', status: 'incomplete' });
    expect(() => JSON.parse(body.output[0].arguments)).toThrow();
  });
});

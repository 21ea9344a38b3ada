/**
 * MockReply -> OpenAI Responses wire (a `response` object; item and field
 * names as in openai 6.49.0 resources/responses/responses.d.ts): output items
 * `reasoning` (when the turn has one), `message` (output_text), then one
 * `function_call` per tool_use (`call_id` is the tool-use id, `id` the item's
 * own). Stop reasons map to `status`: tool_use / end_turn -> completed,
 * max_tokens -> incomplete with `max_output_tokens`, refusal -> incomplete
 * with `content_filter`; `null` leaves status out (a gateway that dropped
 * it) and any other reason passes through raw, so it stays unknown.
 */
import type { MockReply } from './engine.js';
import { cutJsonText } from './partial-json.js';

export interface ResponsesEncodeOptions {
  model: string;
  /** Response id, deterministic per session and turn. */
  id: string;
  /** Unix seconds. */
  createdAt: number;
  previousResponseId: string | null;
  store: boolean;
}

type Item = Record<string, unknown>;

const INCOMPLETE: Readonly<Record<string, string>> = { max_tokens: 'max_output_tokens', refusal: 'content_filter' };

export function responsesStatus(stopReason: string | null): { status?: string; incomplete_details: { reason: string } | null } {
  if (stopReason === null) return { incomplete_details: null };
  if (stopReason === 'tool_use' || stopReason === 'end_turn') return { status: 'completed', incomplete_details: null };
  if (Object.hasOwn(INCOMPLETE, stopReason)) return { status: 'incomplete', incomplete_details: { reason: INCOMPLETE[stopReason] as string } };
  return { status: stopReason, incomplete_details: null };
}

/** The output items of a reply, complete (as `response.output` and `output_item.done` carry them). */
export function responsesOutput(reply: MockReply, responseId: string): Item[] {
  const base = responseId.replace(/^resp_/, '');
  const items: Item[] = [];
  if (reply.reasoning !== undefined) {
    items.push({ id: `rs_${base}`, type: 'reasoning', summary: [{ type: 'summary_text', text: reply.reasoning }] });
  }
  const text = reply.content.flatMap((b) => (b.type === 'text' ? [b.text] : [])).join('');
  if (text !== '') {
    items.push({ id: `msg_${base}`, type: 'message', status: 'completed', role: 'assistant', content: [{ type: 'output_text', text, annotations: [], logprobs: [] }] });
  }
  const uses = reply.content.flatMap((b) => (b.type === 'tool_use' ? [b] : []));
  uses.forEach((use, index) => {
    const full = use.rawArguments ?? JSON.stringify(use.input);
    const cut = reply.cutToolInput && index === uses.length - 1;
    items.push({ id: `fc_${base}_${index}`, type: 'function_call', status: cut ? 'incomplete' : 'completed', call_id: use.id, name: use.name, arguments: cut ? cutJsonText(full) : full });
  });
  return items;
}

export function responsesUsage(reply: MockReply): Item {
  const { input_tokens, output_tokens, cache_read_tokens, cache_write_tokens } = reply.usage;
  // Like Chat Completions, input_tokens include the cached ones.
  const input = input_tokens + cache_read_tokens;
  return {
    input_tokens: input,
    input_tokens_details: { cached_tokens: cache_read_tokens, cache_write_tokens },
    output_tokens,
    output_tokens_details: { reasoning_tokens: 0 },
    total_tokens: input + output_tokens,
  };
}

export function encodeResponsesObject(reply: MockReply, options: ResponsesEncodeOptions, output: Item[] = responsesOutput(reply, options.id)): Item {
  return {
    id: options.id,
    object: 'response',
    created_at: options.createdAt,
    ...responsesStatus(reply.stopReason),
    error: null,
    instructions: null,
    model: options.model,
    output,
    parallel_tool_calls: true,
    previous_response_id: options.previousResponseId,
    store: options.store,
    temperature: 1,
    tool_choice: 'auto',
    tools: [],
    top_p: 1,
    truncation: 'disabled',
    usage: responsesUsage(reply),
    metadata: {},
  };
}

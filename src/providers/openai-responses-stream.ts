/**
 * OpenAI Responses SSE -> ModelResponse. Output items arrive by
 * `output_index`: `response.output_item.added` opens one, text comes as
 * `response.output_text.delta`, arguments as `response.function_call_arguments
 * .delta`, and `response.output_item.done` closes it (a function call is
 * complete there, unless its own status says incomplete). The response ends
 * with `response.completed` or `response.incomplete` (status and usage);
 * `response.failed` and `error` are in-stream errors, and a stream that stops
 * before a terminal event is `stream_interrupted`.
 */
import { streamErrorToModelCallError, streamInterrupted } from './classify-error.js';
import { responsesUsage } from './openai-responses-mapping.js';
import { classifyResponsesStop, responsesStopReason } from './stop-class.js';
import { parseData } from './stream-body.js';
import type { SseMessage } from './sse-reader.js';
import { ToolIdRegistry } from './tool-ids.js';
import { isPlainObject, parseToolArguments } from './tool-arguments.js';
import type { AssistantBlock, CompleteOptions, ModelResponse, ToolUseBlock, Usage } from './types.js';

type Json = Record<string, unknown>;
const obj = (value: unknown): Json => (isPlainObject(value) ? value : {});
const num = (value: unknown): number | null => (typeof value === 'number' && Number.isFinite(value) ? value : null);
const str = (value: unknown): string | null => (typeof value === 'string' ? value : null);

type Slot = { type: 'text'; text: string } | { type: 'call'; callId: string; name: string; args: string; block: ToolUseBlock | null } | { type: 'other' };

export class ResponsesStreamAccumulator {
  private readonly slots = new Map<number, Slot>();
  private usage: Usage = { input_tokens: 0, output_tokens: 0, cache_read_tokens: 0, cache_write_tokens: 0 };
  private stopReason: string | null = null;
  private ended = false;
  private firstTokenAt: number | null = null;

  constructor(
    private readonly startedAt: number,
    private readonly now: () => number,
    private readonly hooks: CompleteOptions = {},
    private readonly ids: ToolIdRegistry = new ToolIdRegistry(),
  ) {}

  feed(message: SseMessage): void {
    if (this.ended) return;
    const data = obj(parseData(message.data));
    const type = str(data['type']) ?? message.event;
    const index = num(data['output_index']);
    switch (type) {
      case 'error':
        throw streamErrorToModelCallError(str(data['code']) ?? str(obj(data['error'])['type']), str(data['message']) ?? 'error event in the stream');
      case 'response.failed': {
        const error = obj(obj(data['response'])['error']);
        throw streamErrorToModelCallError(str(error['code']), str(error['message']) ?? 'the response failed');
      }
      case 'response.output_item.added':
        this.open(index, obj(data['item']));
        break;
      case 'response.output_text.delta':
        this.text(index, str(data['delta']) ?? '');
        break;
      case 'response.function_call_arguments.delta': {
        const slot = index === null ? undefined : this.slots.get(index);
        this.markToken();
        if (slot?.type === 'call') slot.args += str(data['delta']) ?? '';
        break;
      }
      case 'response.output_item.done':
        this.close(index, obj(data['item']));
        break;
      case 'response.completed':
      case 'response.incomplete': {
        const response = obj(data['response']);
        this.stopReason = responsesStopReason(response['status'], obj(response['incomplete_details'])['reason']);
        this.usage = responsesUsage(obj(response['usage']));
        this.ended = true;
        break;
      }
      default:
      // created, in_progress, content_part.*, reasoning_summary_*, output_text.done: nothing to keep. New event types may appear.
    }
  }

  finish(): ModelResponse {
    if (!this.ended) throw streamInterrupted('the stream ended before response.completed');
    const content: AssistantBlock[] = [];
    let text = '';
    for (const index of [...this.slots.keys()].sort((a, b) => a - b)) {
      const slot = this.slots.get(index) as Slot;
      if (slot.type === 'text') text += slot.text;
      else if (slot.type === 'call') content.push(slot.block ?? this.complete(slot));
    }
    if (text !== '') content.unshift({ type: 'text', text });
    const ttftMs = this.firstTokenAt === null ? null : Math.max(0, this.firstTokenAt - this.startedAt);
    const stopClass = classifyResponsesStop(this.stopReason, content.some((b) => b.type === 'tool_use'));
    return { content, stopReason: this.stopReason, stopClass, usage: { ...this.usage }, ttftMs };
  }

  private open(index: number | null, item: Json): void {
    if (index === null) return;
    this.markToken();
    if (item['type'] === 'message') this.slots.set(index, { type: 'text', text: '' });
    else if (item['type'] === 'function_call') this.slots.set(index, { type: 'call', callId: str(item['call_id']) ?? '', name: str(item['name']) ?? '', args: str(item['arguments']) ?? '', block: null });
    else this.slots.set(index, { type: 'other' });
  }

  private text(index: number | null, delta: string): void {
    const slot = index === null ? undefined : this.slots.get(index);
    if (slot?.type !== 'text' || delta === '') return;
    this.markToken();
    slot.text += delta;
  }

  private close(index: number | null, item: Json): void {
    const slot = index === null ? undefined : this.slots.get(index);
    if (slot?.type !== 'call' || slot.block !== null) return;
    // The done item carries the whole arguments text: it wins over the deltas (a gateway may skip them).
    if (typeof item['arguments'] === 'string') slot.args = item['arguments'];
    slot.block = this.complete(slot);
    if (item['status'] !== 'incomplete' && slot.block.inputError === undefined) this.hooks.onToolUse?.(slot.block);
  }

  private complete(slot: Extract<Slot, { type: 'call' }>): ToolUseBlock {
    return { type: 'tool_use', id: this.ids.unique(slot.callId), name: slot.name, ...parseToolArguments(slot.args) };
  }

  private markToken(): void {
    if (this.firstTokenAt === null) this.firstTokenAt = this.now();
  }
}

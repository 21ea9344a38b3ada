/**
 * Anthropic Messages SSE -> ModelResponse (docs/harness-rules.md#streaming-execution). Events: message_start,
 * content_block_start / content_block_delta (text_delta, input_json_delta) /
 * content_block_stop, message_delta (stop reason, output usage), message_stop,
 * `ping` anywhere, `error` mid-stream. A tool_use is complete only at its
 * block stop; the response exists only after message_stop, so a stream that
 * stops earlier is `stream_interrupted` and nothing partial reaches the harness.
 */
import { classifyAnthropicStop } from './stop-class.js';
import { streamErrorToModelCallError, streamInterrupted } from './classify-error.js';
import { parseData } from './stream-body.js';
import type { SseMessage } from './sse-reader.js';
import { ToolIdRegistry } from './tool-ids.js';
import { isPlainObject, parseToolArguments } from './tool-arguments.js';
import type { AssistantBlock, CompleteOptions, ModelResponse, ToolUseBlock, Usage } from './types.js';

type Slot = { type: 'text'; text: string } | { type: 'tool_use'; id: string; name: string; json: string; block: ToolUseBlock | null } | { type: 'other' };

type Json = Record<string, unknown>;
const obj = (value: unknown): Json => (isPlainObject(value) ? value : {});
const num = (value: unknown): number | null => (typeof value === 'number' && Number.isFinite(value) ? value : null);

export class AnthropicStreamAccumulator {
  private readonly slots = new Map<number, Slot>();
  private readonly usage: Usage = { input_tokens: 0, output_tokens: 0, cache_read_tokens: 0, cache_write_tokens: 0 };
  private stopReason: string | null = null;
  private stopped = false;
  private firstTokenAt: number | null = null;

  constructor(
    private readonly startedAt: number,
    private readonly now: () => number,
    private readonly hooks: CompleteOptions = {},
    private readonly ids: ToolIdRegistry = new ToolIdRegistry(),
  ) {}

  feed(message: SseMessage): void {
    const event = message.event;
    if (event === 'ping' || event === null || this.stopped) return;
    const data = obj(parseData(message.data));
    if (event === 'error') {
      const error = obj(data['error']);
      const type = typeof error['type'] === 'string' ? error['type'] : null;
      throw streamErrorToModelCallError(type, typeof error['message'] === 'string' ? error['message'] : 'error event in the stream');
    }
    if (event === 'message_start') this.readUsage(obj(obj(data['message'])['usage']));
    else if (event === 'content_block_start') this.start(num(data['index']), obj(data['content_block']));
    else if (event === 'content_block_delta') this.delta(num(data['index']), obj(data['delta']));
    else if (event === 'content_block_stop') this.stop(num(data['index']));
    else if (event === 'message_delta') {
      const delta = obj(data['delta']);
      if ('stop_reason' in delta) this.stopReason = typeof delta['stop_reason'] === 'string' ? delta['stop_reason'] : null;
      this.readUsage(obj(data['usage']));
    } else if (event === 'message_stop') this.stopped = true;
    // Other event types are ignored: the API documents that new ones may appear.
  }

  /** The response, or `stream_interrupted` when message_stop never came. */
  finish(): ModelResponse {
    if (!this.stopped) throw streamInterrupted('the stream ended before message_stop');
    const content: AssistantBlock[] = [];
    for (const index of [...this.slots.keys()].sort((a, b) => a - b)) {
      const slot = this.slots.get(index) as Slot;
      if (slot.type === 'text') content.push({ type: 'text', text: slot.text });
      else if (slot.type === 'tool_use') content.push(slot.block ?? this.complete(slot));
    }
    const ttftMs = this.firstTokenAt === null ? null : Math.max(0, this.firstTokenAt - this.startedAt);
    return { content, stopReason: this.stopReason, stopClass: classifyAnthropicStop(this.stopReason), usage: { ...this.usage }, ttftMs };
  }

  private start(index: number | null, block: Json): void {
    if (index === null) return;
    this.markToken();
    if (block['type'] === 'text') this.slots.set(index, { type: 'text', text: typeof block['text'] === 'string' ? block['text'] : '' });
    else if (block['type'] === 'tool_use') {
      this.slots.set(index, { type: 'tool_use', id: String(block['id'] ?? ''), name: String(block['name'] ?? ''), json: '', block: null });
    } else this.slots.set(index, { type: 'other' }); // thinking, server tools: not part of the neutral form
  }

  private delta(index: number | null, delta: Json): void {
    const slot = index === null ? undefined : this.slots.get(index);
    if (!slot) return;
    this.markToken();
    if (slot.type === 'text' && delta['type'] === 'text_delta' && typeof delta['text'] === 'string') slot.text += delta['text'];
    if (slot.type === 'tool_use' && delta['type'] === 'input_json_delta' && typeof delta['partial_json'] === 'string') slot.json += delta['partial_json'];
  }

  private stop(index: number | null): void {
    const slot = index === null ? undefined : this.slots.get(index);
    if (!slot || slot.type !== 'tool_use' || slot.block !== null) return;
    slot.block = this.complete(slot);
    // Only a block whose input parsed is complete; a cut one waits for the stop reason in the final response.
    if (slot.block.inputError === undefined) this.hooks.onToolUse?.(slot.block);
  }

  private complete(slot: Extract<Slot, { type: 'tool_use' }>): ToolUseBlock {
    // A tool without input streams no partial_json at all: that is `{}`, not an empty-arguments fault.
    const parsed = slot.json.trim() === '' ? { input: {} } : parseToolArguments(slot.json);
    return { type: 'tool_use', id: this.ids.unique(slot.id), name: slot.name, ...parsed };
  }

  private readUsage(usage: Json): void {
    const set = (key: keyof Usage, value: unknown) => {
      const n = num(value);
      if (n !== null) this.usage[key] = n;
    };
    set('input_tokens', usage['input_tokens']);
    set('output_tokens', usage['output_tokens']);
    set('cache_read_tokens', usage['cache_read_input_tokens']);
    set('cache_write_tokens', usage['cache_creation_input_tokens']);
  }

  private markToken(): void {
    if (this.firstTokenAt === null) this.firstTokenAt = this.now();
  }
}

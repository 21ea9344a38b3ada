/**
 * OpenAI Chat Completions SSE -> ModelResponse (docs/harness-rules.md#wire-differences, docs/harness-rules.md#streaming-execution).
 * `chat.completion.chunk` deltas; tool-call argument pieces arrive interleaved
 * by `index` and are bucketed by it; `finish_reason` arrives on the last choice
 * chunk, usage (with `include_usage`) on a chunk with empty choices, then
 * `data: [DONE]`. Without [DONE] the stream was cut: `stream_interrupted`.
 */
import { streamErrorToModelCallError, streamInterrupted } from './classify-error.js';
import { classifyOpenAIStop } from './stop-class.js';
import { parseData } from './stream-body.js';
import type { SseMessage } from './sse-reader.js';
import { ToolIdRegistry } from './tool-ids.js';
import { isPlainObject, parseToolArguments } from './tool-arguments.js';
import type { AssistantBlock, CompleteOptions, ModelResponse, ToolUseBlock, Usage } from './types.js';

type Json = Record<string, unknown>;
const obj = (value: unknown): Json => (isPlainObject(value) ? value : {});
const num = (value: unknown): number | null => (typeof value === 'number' && Number.isFinite(value) ? value : null);

interface Bucket {
  id: string;
  name: string;
  args: string;
}

/** Finish reasons after which the calls are cut or withheld: never reported as complete. */
const CUT_FINISH = new Set(['length', 'content_filter']);

export class OpenAIStreamAccumulator {
  private text = '';
  private readonly buckets = new Map<number, Bucket>();
  private readonly usage: Usage = { input_tokens: 0, output_tokens: 0, cache_read_tokens: 0, cache_write_tokens: 0 };
  private finishReason: string | null = null;
  private finished = false;
  private done = false;
  private blocks: ToolUseBlock[] | null = null;
  private firstTokenAt: number | null = null;

  constructor(
    private readonly startedAt: number,
    private readonly now: () => number,
    private readonly hooks: CompleteOptions = {},
    private readonly ids: ToolIdRegistry = new ToolIdRegistry(),
  ) {}

  feed(message: SseMessage): void {
    if (this.done) return;
    if (message.data.startsWith('[DONE]')) {
      this.done = true;
      return;
    }
    const chunk = obj(parseData(message.data));
    if (isPlainObject(chunk['error'])) {
      const error = chunk['error'];
      const type = typeof error['type'] === 'string' ? error['type'] : typeof error['code'] === 'string' ? error['code'] : null;
      throw streamErrorToModelCallError(type, typeof error['message'] === 'string' ? error['message'] : 'error chunk in the stream');
    }
    if (isPlainObject(chunk['usage'])) this.readUsage(chunk['usage']);
    const choices = Array.isArray(chunk['choices']) ? chunk['choices'] : [];
    const choice = obj(choices.find((c) => num(obj(c)['index']) === 0) ?? choices[0]);
    const delta = obj(choice['delta']);
    if (typeof delta['content'] === 'string' && delta['content'] !== '') {
      this.markToken();
      this.text += delta['content'];
    }
    if (Array.isArray(delta['tool_calls'])) for (const call of delta['tool_calls']) this.toolDelta(obj(call));
    if (typeof choice['finish_reason'] === 'string' && !this.finished) {
      this.finished = true;
      this.finishReason = choice['finish_reason'];
      this.blocks = this.complete();
      if (!CUT_FINISH.has(this.finishReason)) for (const b of this.blocks) if (b.inputError === undefined) this.hooks.onToolUse?.(b);
    }
  }

  finish(): ModelResponse {
    if (!this.done) throw streamInterrupted('the stream ended before data: [DONE]');
    const content: AssistantBlock[] = [];
    if (this.text !== '') content.push({ type: 'text', text: this.text });
    content.push(...(this.blocks ?? this.complete()));
    const ttftMs = this.firstTokenAt === null ? null : Math.max(0, this.firstTokenAt - this.startedAt);
    return { content, stopReason: this.finishReason, stopClass: classifyOpenAIStop(this.finishReason), usage: { ...this.usage }, ttftMs };
  }

  private toolDelta(call: Json): void {
    const index = num(call['index']) ?? 0;
    this.markToken();
    let bucket = this.buckets.get(index);
    if (!bucket) {
      bucket = { id: '', name: '', args: '' };
      this.buckets.set(index, bucket);
    }
    const fn = obj(call['function']);
    if (typeof call['id'] === 'string' && bucket.id === '') bucket.id = call['id'];
    // Some compatible servers stream the name in pieces too; OpenAI sends it whole once.
    if (typeof fn['name'] === 'string') bucket.name += fn['name'];
    if (typeof fn['arguments'] === 'string') bucket.args += fn['arguments'];
  }

  private complete(): ToolUseBlock[] {
    return [...this.buckets.keys()]
      .sort((a, b) => a - b)
      .map((index) => {
        const b = this.buckets.get(index) as Bucket;
        return { type: 'tool_use', id: this.ids.unique(b.id), name: b.name, ...parseToolArguments(b.args) };
      });
  }

  private readUsage(usage: Json): void {
    const cached = num(obj(usage['prompt_tokens_details'])['cached_tokens']) ?? 0;
    // prompt_tokens include cached ones; the neutral form counts them apart (as fromOpenAICompletion does).
    this.usage.input_tokens = Math.max(0, (num(usage['prompt_tokens']) ?? 0) - cached);
    this.usage.output_tokens = num(usage['completion_tokens']) ?? 0;
    this.usage.cache_read_tokens = cached;
  }

  private markToken(): void {
    if (this.firstTokenAt === null) this.firstTokenAt = this.now();
  }
}

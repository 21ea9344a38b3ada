/**
 * AnthropicModel: the Model interface on the official @anthropic-ai/sdk client.
 * SDK retries are off (`maxRetries: 0`): retries are the harness's job and are
 * logged, and msw 2 hangs when the SDK cancels an error body to retry (docs/architecture.md#dependency-notes).
 * With `stream: true` the call streams (SSE) and the raw events are read by
 * AnthropicStreamAccumulator: tool_use complete at block stop, ttft recorded.
 */
import Anthropic from '@anthropic-ai/sdk';
import { fromAnthropicMessage, toAnthropicParams, type AnthropicParams } from './anthropic-mapping.js';
import { AnthropicStreamAccumulator } from './anthropic-stream.js';
import { guardSdkCall } from './sdk-guard.js';
import { consumeSse } from './stream-body.js';
import { ToolIdRegistry } from './tool-ids.js';
import { FirstByteTimer } from './first-byte.js';
import { byteLength, DEFAULT_STREAM_IDLE_TIMEOUT_MS, DEFAULT_TIMEOUT_MS, sharedClient, type AdapterOptions } from './adapter-options.js';
import { type CompleteOptions, type Model, type ModelRequest, type ModelResponse, type RequestInfo } from './types.js';

export { DEFAULT_STREAM_IDLE_TIMEOUT_MS, DEFAULT_TIMEOUT_MS };

export type AnthropicModelOptions = AdapterOptions;

const ANTHROPIC_CLASSES = {
  APIUserAbortError: Anthropic.APIUserAbortError,
  base: Anthropic.AnthropicError,
  APIConnectionTimeoutError: Anthropic.APIConnectionTimeoutError,
  APIConnectionError: Anthropic.APIConnectionError,
  APIError: Anthropic.APIError,
};

const anthropicClients = new Map<string, Anthropic>();

export class AnthropicModel implements Model {
  readonly provider = 'anthropic';
  readonly model: string;
  private readonly strictTools: boolean;
  private readonly client: Anthropic;
  private readonly headers: Readonly<Record<string, string>> | undefined;
  private readonly stream: boolean;
  private readonly now: () => number;
  private readonly streamIdleTimeoutMs: number;
  private readonly firstByteTimeoutMs: number | undefined;
  private readonly promptCache: boolean;

  constructor(options: AnthropicModelOptions) {
    this.model = options.model;
    this.strictTools = options.strictTools ?? false;
    this.stream = options.stream ?? false;
    this.now = options.now ?? (() => performance.now());
    this.streamIdleTimeoutMs = options.streamIdleTimeoutMs ?? DEFAULT_STREAM_IDLE_TIMEOUT_MS;
    this.firstByteTimeoutMs = options.firstByteTimeoutMs;
    // On by default: without a breakpoint the API caches nothing (anthropic-cache.ts).
    this.promptCache = options.promptCache ?? true;
    this.client = sharedClient((o) => new Anthropic(o), anthropicClients, options);
    this.headers = options.headers;
  }

  describeRequest(request: ModelRequest): RequestInfo {
    const params = toAnthropicParams(this.model, request, { strict: this.strictTools }, this.promptCache);
    const sent = this.stream ? { ...params, stream: true } : params;
    // The definitions' own size: a cache breakpoint on the last tool (sessions without a system prompt) is not part of them.
    const tools = this.promptCache ? toAnthropicParams(this.model, { ...request, messages: [] }, { strict: this.strictTools }, false).tools : params.tools;
    return { requestBytes: byteLength(sent), toolsBytes: byteLength(tools), stream: this.stream };
  }

  async complete(request: ModelRequest, options: CompleteOptions = {}): Promise<ModelResponse> {
    const params = toAnthropicParams(this.model, request, { strict: this.strictTools }, this.promptCache);
    const signal = request.signal;
    const firstByte = new FirstByteTimer(signal, this.firstByteTimeoutMs);
    try {
      return await this.attempt(request, params, signal, firstByte, options);
    } finally {
      firstByte.done();
    }
  }

  private async attempt(request: ModelRequest, params: AnthropicParams, signal: AbortSignal | undefined, firstByte: FirstByteTimer, options: CompleteOptions): Promise<ModelResponse> {
    const sdkSignal = firstByte.signal;
    const requestOptions = sdkSignal || this.headers ? { ...(sdkSignal ? { signal: sdkSignal } : {}), ...(this.headers ? { headers: this.headers } : {}) } : undefined;
    if (!this.stream) {
      const message = await firstByte.run(() => guardSdkCall(ANTHROPIC_CLASSES, () => this.client.messages.create(params, requestOptions), signal));
      const mapped = fromAnthropicMessage(message);
      return { ...mapped, content: new ToolIdRegistry(request.messages).apply(mapped.content), ttftMs: null };
    }
    const started = this.now();
    // The raw response, so the adapter sees every event and tells a clean end from a cut (see sse-reader.ts).
    const response = await firstByte.run(() => guardSdkCall(ANTHROPIC_CLASSES, () => this.client.messages.create({ ...params, stream: true }, requestOptions).asResponse(), signal));
    const accumulator = new AnthropicStreamAccumulator(started, this.now, options, new ToolIdRegistry(request.messages));
    await firstByte.run(() =>
      consumeSse(response.body, signal, (message) => {
        firstByte.arrived();
        accumulator.feed(message);
      }, this.streamIdleTimeoutMs),
    );
    return accumulator.finish();
  }
}

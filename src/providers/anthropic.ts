/**
 * AnthropicModel: the Model interface on the official @anthropic-ai/sdk client.
 * SDK retries are off (`maxRetries: 0`): retries are the harness's job and are
 * logged, and msw 2 hangs when the SDK cancels an error body to retry (docs/architecture.md#dependency-notes).
 * With `stream: true` the call streams (SSE) and the raw events are read by
 * AnthropicStreamAccumulator: tool_use complete at block stop, ttft recorded.
 */
import Anthropic from '@anthropic-ai/sdk';
import { fromAnthropicMessage } from './anthropic-mapping.js';
import { AnthropicRequestBuilder } from './anthropic-request.js';
import { AnthropicStreamAccumulator } from './anthropic-stream.js';
import { sdkCallError } from './sdk-guard.js';
import { accumulateSse } from './stream-body.js';
import { ToolIdRegistry, withUniqueToolIds } from './tool-ids.js';
import { FirstByteTimer } from './first-byte.js';
import { DEFAULT_STREAM_IDLE_TIMEOUT_MS, DEFAULT_TIMEOUT_MS, requestOptionsOf, sharedClient, type AdapterOptions } from './adapter-options.js';
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
  /** The custom fetch follows the call's signal itself (caller-signal.ts): the SDK is not given it. */
  private readonly signalViaFetch: boolean;
  private readonly stream: boolean;
  private readonly now: () => number;
  private readonly streamIdleTimeoutMs: number;
  private readonly firstByteTimeoutMs: number | undefined;
  private readonly promptCache: boolean;
  /** Translates and measures each history block once (anthropic-request.ts). */
  private readonly builder: AnthropicRequestBuilder;

  constructor(options: AnthropicModelOptions) {
    this.model = options.model;
    this.strictTools = options.strictTools ?? false;
    this.stream = options.stream ?? false;
    this.now = options.now ?? (() => performance.now());
    this.streamIdleTimeoutMs = options.streamIdleTimeoutMs ?? DEFAULT_STREAM_IDLE_TIMEOUT_MS;
    this.firstByteTimeoutMs = options.firstByteTimeoutMs;
    // On by default: without a breakpoint the API caches nothing (anthropic-cache.ts).
    this.promptCache = options.promptCache ?? true;
    this.client = sharedClient((o) => new Anthropic(options.sdkTelemetry === false ? { ...o, openTelemetry: false } : o), anthropicClients, options);
    this.headers = options.headers;
    this.signalViaFetch = options.fetch !== undefined && options.fetchFollowsSignal === true;
    this.builder = new AnthropicRequestBuilder(this.model, { strict: this.strictTools }, this.promptCache);
  }

  describeRequest(request: ModelRequest): RequestInfo {
    // The size of the body complete() sends, summed from its parts; toolsBytes: the definitions' own size (a cache breakpoint on the last tool is not part of them).
    const { requestBytes, toolsBytes } = this.builder.sizes(request, this.stream);
    return { requestBytes, toolsBytes, stream: this.stream };
  }

  async complete(request: ModelRequest, options: CompleteOptions = {}): Promise<ModelResponse> {
    const params = this.builder.params(request);
    const signal = request.signal;
    const firstByte = new FirstByteTimer(signal, this.firstByteTimeoutMs);
    const sdkSignal = firstByte.signal;
    const requestOptions = requestOptionsOf(sdkSignal, this.headers, this.signalViaFetch);
    // One async frame for the whole call: each SDK await maps its failure as guardSdkCall inside firstByte.run would (sdk-guard.ts, first-byte.ts).
    try {
      if (!this.stream) {
        let message: Anthropic.Message;
        try {
          message = await this.client.messages.create(params, requestOptions);
        } catch (error) {
          throw firstByte.failure(sdkCallError(ANTHROPIC_CLASSES, error, signal));
        }
        const mapped = fromAnthropicMessage(message);
        return { content: withUniqueToolIds(request.messages, mapped.content), stopReason: mapped.stopReason, stopClass: mapped.stopClass, usage: mapped.usage, ttftMs: null };
      }
      const started = this.now();
      // The raw response, so the adapter sees every event and tells a clean end from a cut (see sse-reader.ts).
      let response: Response;
      try {
        response = await this.client.messages.create({ ...params, stream: true }, requestOptions).asResponse();
      } catch (error) {
        throw firstByte.failure(sdkCallError(ANTHROPIC_CLASSES, error, signal));
      }
      const accumulator = new AnthropicStreamAccumulator(started, this.now, options, new ToolIdRegistry(request.messages));
      return await accumulateSse(response, signal, firstByte, accumulator, this.streamIdleTimeoutMs);
    } finally {
      firstByte.done();
    }
  }
}

/**
 * OpenAIModel: the Model interface on the official `openai` client, Chat
 * Completions. Works with any OpenAI-compatible server via `baseURL`. SDK
 * retries are off (`maxRetries: 0`), see docs/architecture.md#dependency-notes. With `stream: true` the
 * call streams with `include_usage` and OpenAIStreamAccumulator buckets the
 * interleaved tool-call deltas by index.
 */
import OpenAI from 'openai';
import { openAICallError } from './openai-guard.js';
import { fromOpenAICompletion, toOpenAIParams, type MaxTokensParam, type OpenAIParams } from './openai-mapping.js';
import { OpenAIStreamAccumulator } from './openai-stream.js';
import { accumulateSse } from './stream-body.js';
import { ToolIdRegistry, withUniqueToolIds } from './tool-ids.js';
import { FirstByteTimer } from './first-byte.js';
import { byteLength, DEFAULT_STREAM_IDLE_TIMEOUT_MS, DEFAULT_TIMEOUT_MS, requestOptionsOf, sharedClient, type AdapterOptions } from './adapter-options.js';
import { type CompleteOptions, type Model, type ModelRequest, type ModelResponse, type RequestInfo } from './types.js';

export { DEFAULT_STREAM_IDLE_TIMEOUT_MS, DEFAULT_TIMEOUT_MS };

export interface OpenAIModelOptions extends AdapterOptions {
  /** Default `max_completion_tokens`; use `max_tokens` for older OpenAI-compatible servers. */
  maxTokensParam?: MaxTokensParam;
}

const openaiClients = new Map<string, OpenAI>();

export class OpenAIModel implements Model {
  readonly provider = 'openai';
  readonly model: string;
  private readonly strictTools: boolean;
  private readonly client: OpenAI;
  private readonly headers: Readonly<Record<string, string>> | undefined;
  /** The custom fetch follows the call's signal itself (caller-signal.ts): the SDK is not given it. */
  private readonly signalViaFetch: boolean;
  private readonly maxTokensParam: MaxTokensParam;
  private readonly stream: boolean;
  private readonly now: () => number;
  private readonly streamIdleTimeoutMs: number;
  private readonly firstByteTimeoutMs: number | undefined;

  constructor(options: OpenAIModelOptions) {
    this.model = options.model;
    this.strictTools = options.strictTools ?? false;
    this.maxTokensParam = options.maxTokensParam ?? 'max_completion_tokens';
    this.stream = options.stream ?? false;
    this.now = options.now ?? (() => performance.now());
    this.streamIdleTimeoutMs = options.streamIdleTimeoutMs ?? DEFAULT_STREAM_IDLE_TIMEOUT_MS;
    this.firstByteTimeoutMs = options.firstByteTimeoutMs;
    this.client = sharedClient((o) => new OpenAI(o), openaiClients, options);
    this.headers = options.headers;
    this.signalViaFetch = options.fetch !== undefined && options.fetchFollowsSignal === true;
  }

  describeRequest(request: ModelRequest): RequestInfo {
    const params = toOpenAIParams(this.model, request, this.maxTokensParam, { strict: this.strictTools });
    return { requestBytes: byteLength(this.wireParams(params)), toolsBytes: byteLength(params.tools), stream: this.stream };
  }

  async complete(request: ModelRequest, options: CompleteOptions = {}): Promise<ModelResponse> {
    const params = toOpenAIParams(this.model, request, this.maxTokensParam, { strict: this.strictTools });
    const signal = request.signal;
    const firstByte = new FirstByteTimer(signal, this.firstByteTimeoutMs);
    const sdkSignal = firstByte.signal;
    const requestOptions = requestOptionsOf(sdkSignal, this.headers, this.signalViaFetch);
    // One async frame for the whole call: each SDK await maps its failure as guardOpenAICall inside firstByte.run would (sdk-guard.ts, first-byte.ts).
    try {
      if (!this.stream) {
        let result: OpenAI.ChatCompletion;
        try {
          result = await this.client.chat.completions.create(params, requestOptions);
        } catch (error) {
          throw firstByte.failure(openAICallError(error, signal));
        }
        const mapped = fromOpenAICompletion(result);
        return { content: withUniqueToolIds(request.messages, mapped.content), stopReason: mapped.stopReason, stopClass: mapped.stopClass, usage: mapped.usage, ttftMs: null };
      }
      const started = this.now();
      const streaming = { ...params, stream: true as const, stream_options: { include_usage: true } };
      // The raw response, so the adapter sees the stream's end and tells a clean end from a cut (see sse-reader.ts).
      let response: Response;
      try {
        response = await this.client.chat.completions.create(streaming, requestOptions).asResponse();
      } catch (error) {
        throw firstByte.failure(openAICallError(error, signal));
      }
      const accumulator = new OpenAIStreamAccumulator(started, this.now, options, new ToolIdRegistry(request.messages));
      return await accumulateSse(response, signal, firstByte, accumulator, this.streamIdleTimeoutMs);
    } finally {
      firstByte.done();
    }
  }

  private wireParams(params: OpenAIParams): object {
    return this.stream ? { ...params, stream: true, stream_options: { include_usage: true } } : params;
  }
}

/**
 * OpenAIResponsesModel: the Model interface on the official `openai` client's
 * `client.responses` (the Responses API, OpenAI's default for agents). Same
 * client options, error classification and retry policy as the other two
 * adapters (SDK retries off, docs/architecture.md#dependency-notes). With `stream: true` the raw SSE is
 * read by ResponsesStreamAccumulator, so a clean end (`response.completed`)
 * is told from a cut.
 */
import OpenAI from 'openai';
import { openAICallError } from './openai-guard.js';
import { fromResponsesObject, toResponsesParams, type ResponsesParams } from './openai-responses-mapping.js';
import { ResponsesStreamAccumulator } from './openai-responses-stream.js';
import { accumulateSse } from './stream-body.js';
import { ToolIdRegistry, withUniqueToolIds } from './tool-ids.js';
import { FirstByteTimer } from './first-byte.js';
import { byteLength, DEFAULT_STREAM_IDLE_TIMEOUT_MS, requestOptionsOf, sharedClient, type AdapterOptions } from './adapter-options.js';
import { type CompleteOptions, type Model, type ModelRequest, type ModelResponse, type RequestInfo } from './types.js';

export type OpenAIResponsesModelOptions = AdapterOptions;

/** Shared with no other adapter: a client per configuration, as OpenAIModel keeps its own. */
const responsesClients = new Map<string, OpenAI>();

export class OpenAIResponsesModel implements Model {
  readonly provider = 'openai-responses';
  readonly model: string;
  private readonly strictTools: boolean;
  private readonly client: OpenAI;
  private readonly headers: Readonly<Record<string, string>> | undefined;
  /** The custom fetch follows the call's signal itself (caller-signal.ts): the SDK is not given it. */
  private readonly signalViaFetch: boolean;
  private readonly stream: boolean;
  private readonly now: () => number;
  private readonly streamIdleTimeoutMs: number;
  private readonly firstByteTimeoutMs: number | undefined;

  constructor(options: OpenAIResponsesModelOptions) {
    this.model = options.model;
    this.strictTools = options.strictTools ?? false;
    this.stream = options.stream ?? false;
    this.now = options.now ?? (() => performance.now());
    this.streamIdleTimeoutMs = options.streamIdleTimeoutMs ?? DEFAULT_STREAM_IDLE_TIMEOUT_MS;
    this.firstByteTimeoutMs = options.firstByteTimeoutMs;
    this.client = sharedClient((o) => new OpenAI(o), responsesClients, options);
    this.headers = options.headers;
    this.signalViaFetch = options.fetch !== undefined && options.fetchFollowsSignal === true;
  }

  describeRequest(request: ModelRequest): RequestInfo {
    const params = toResponsesParams(this.model, request, { strict: this.strictTools });
    const sent = this.stream ? { ...params, stream: true } : params;
    return { requestBytes: byteLength(sent), toolsBytes: byteLength(params.tools), stream: this.stream };
  }

  async complete(request: ModelRequest, options: CompleteOptions = {}): Promise<ModelResponse> {
    const params = toResponsesParams(this.model, request, { strict: this.strictTools });
    const signal = request.signal;
    const firstByte = new FirstByteTimer(signal, this.firstByteTimeoutMs);
    const sdkSignal = firstByte.signal;
    const requestOptions = requestOptionsOf(sdkSignal, this.headers, this.signalViaFetch);
    // One async frame for the whole call: each SDK await maps its failure as guardOpenAICall inside firstByte.run would (sdk-guard.ts, first-byte.ts).
    try {
      if (!this.stream) {
        let result: OpenAI.Responses.Response;
        try {
          result = await this.client.responses.create(params, requestOptions);
        } catch (error) {
          throw firstByte.failure(openAICallError(error, signal));
        }
        const mapped = fromResponsesObject(result);
        return { content: withUniqueToolIds(request.messages, mapped.content), stopReason: mapped.stopReason, stopClass: mapped.stopClass, usage: mapped.usage, ttftMs: null };
      }
      const started = this.now();
      // The raw response, so the adapter sees the stream's end and tells a clean end from a cut (see sse-reader.ts).
      let response: Response;
      try {
        response = await this.client.responses.create({ ...params, stream: true }, requestOptions).asResponse();
      } catch (error) {
        throw firstByte.failure(openAICallError(error, signal));
      }
      const accumulator = new ResponsesStreamAccumulator(started, this.now, options, new ToolIdRegistry(request.messages));
      return await accumulateSse(response, signal, firstByte, accumulator, this.streamIdleTimeoutMs);
    } finally {
      firstByte.done();
    }
  }
}

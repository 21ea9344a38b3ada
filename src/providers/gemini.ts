/**
 * GeminiModel: the Model interface on the official @google/genai client
 * (`models.generateContent` / `models.generateContentStream`, the Gemini
 * API's generateContent). SDK retries are off (no `retryOptions`): the
 * harness retries and logs each attempt. Streaming goes through the SDK's
 * own SSE reader (`?alt=sse`); a chunk carries whole function calls, so a
 * call is complete when its chunk arrives, and the stream's end is clean
 * only when the body ended without a transport error (a cut connection is
 * `stream_interrupted`, an `error` chunk the API's error).
 */
// Types only: the SDK is an optional peer, loaded on the first call (gemini-sdk.ts).
import type { GenerateContentResponse, GoogleGenAI, GoogleGenAIOptions, HttpOptions } from '@google/genai';
import { byteLength, DEFAULT_STREAM_IDLE_TIMEOUT_MS, DEFAULT_TIMEOUT_MS, type AdapterOptions } from './adapter-options.js';
import { streamInterrupted } from './classify-error.js';
import { geminiCallError } from './gemini-errors.js';
import { loadedGeminiSdk, loadGeminiSdk } from './gemini-sdk.js';
import { fromGeminiResponse, geminiBlocks, geminiStopReason, geminiUsage, geminiWireBody, mergeBlocks, toGeminiParams } from './gemini-mapping.js';
import { FirstByteTimer } from './first-byte.js';
import { classifyGeminiStop } from './stop-class.js';
import { ToolIdRegistry, withUniqueToolIds } from './tool-ids.js';
import { ModelCallError, type AssistantBlock, type CompleteOptions, type Model, type ModelRequest, type ModelResponse, type RequestInfo, type Usage } from './types.js';

export type GeminiModelOptions = AdapterOptions;

let madeIds = 0;
/** An id for a call the API sent without one (ids are optional on this API). */
const makeId = () => `gemini_call_${++madeIds}`;

export class GeminiModel implements Model {
  readonly provider = 'gemini';
  readonly model: string;
  private client: GoogleGenAI | undefined;
  private readonly clientOptions: GoogleGenAIOptions;
  private readonly stream: boolean;
  private readonly now: () => number;
  private readonly streamIdleTimeoutMs: number;
  private readonly timeoutMs: number;
  private readonly firstByteTimeoutMs: number | undefined;

  constructor(options: GeminiModelOptions) {
    this.model = options.model;
    this.stream = options.stream ?? false;
    this.now = options.now ?? (() => performance.now());
    this.streamIdleTimeoutMs = options.streamIdleTimeoutMs ?? DEFAULT_STREAM_IDLE_TIMEOUT_MS;
    this.timeoutMs = options.timeoutMs ?? DEFAULT_TIMEOUT_MS;
    this.firstByteTimeoutMs = options.firstByteTimeoutMs;
    // No SDK timeout: the call's own signal carries it (see callSignal).
    const httpOptions: HttpOptions = {};
    if (options.baseURL !== undefined) httpOptions.baseUrl = options.baseURL;
    if (options.headers !== undefined) httpOptions.headers = { ...options.headers };
    if (options.fetch !== undefined) httpOptions.fetch = options.fetch as NonNullable<HttpOptions['fetch']>;
    // Without an explicit key the SDK reads GEMINI_API_KEY / GOOGLE_API_KEY, as the other SDKs read theirs.
    this.clientOptions = { ...(options.apiKey !== undefined ? { apiKey: options.apiKey } : {}), httpOptions };
    const sdk = loadedGeminiSdk();
    if (sdk) this.client = new sdk.GoogleGenAI(this.clientOptions);
  }

  /** The client, built once the SDK is loaded (MissingPeerError, with the install command, when it is not installed). */
  private async sdkClient(): Promise<GoogleGenAI> {
    this.client ??= new (await loadGeminiSdk()).GoogleGenAI(this.clientOptions);
    return this.client;
  }

  describeRequest(request: ModelRequest): RequestInfo {
    const body = geminiWireBody(toGeminiParams(this.model, request));
    return { requestBytes: byteLength(body), toolsBytes: byteLength(body['tools']), stream: this.stream };
  }

  async complete(request: ModelRequest, options: CompleteOptions = {}): Promise<ModelResponse> {
    const client = await this.sdkClient();
    const params = toGeminiParams(this.model, request);
    // The first-byte timer sits under the call's own timeout: it cuts an upstream that never starts answering.
    const firstByte = new FirstByteTimer(request.signal, this.firstByteTimeoutMs);
    const call = callSignal(firstByte.signal, this.timeoutMs);
    params.config = { ...params.config, abortSignal: call.signal };
    try {
      if (!this.stream) {
        let response: GenerateContentResponse;
        try {
          response = await firstByte.run(async () => {
            try {
              return await client.models.generateContent(params);
            } catch (error) {
              throw call.timedOut() ? timedOut(this.timeoutMs) : geminiCallError(error, request.signal);
            }
          });
        } finally {
          firstByte.arrived();
        }
        const mapped = fromGeminiResponse(response, makeId);
        return { ...mapped, content: withUniqueToolIds(request.messages, mapped.content), ttftMs: null };
      }
      const started = this.now();
      let chunks: AsyncGenerator<GenerateContentResponse>;
      try {
        chunks = await firstByte.run(async () => {
          try {
            return await client.models.generateContentStream(params);
          } catch (error) {
            throw call.timedOut() ? timedOut(this.timeoutMs) : geminiCallError(error, request.signal);
          }
        });
      } catch (error) {
        firstByte.arrived();
        throw error;
      }
      return await this.readStream(chunks, started, request, options, () => call.timedOut(), firstByte);
    } finally {
      call.release();
      firstByte.done();
    }
  }

  private async readStream(chunks: AsyncGenerator<GenerateContentResponse>, started: number, request: ModelRequest, options: CompleteOptions, expired: () => boolean, firstByte: FirstByteTimer): Promise<ModelResponse> {
    const ids = new ToolIdRegistry(request.messages);
    const blocks: AssistantBlock[] = [];
    let stopReason: string | null = null;
    let usage: Usage = geminiUsage(undefined);
    let firstTokenAt: number | null = null;
    for (;;) {
      let next: IteratorResult<GenerateContentResponse>;
      try {
        next = await withinIdle(firstByte.run(() => chunks.next()), this.streamIdleTimeoutMs);
        firstByte.arrived();
      } catch (error) {
        void chunks.return(undefined).catch(() => undefined);
        if (request.signal?.aborted) throw request.signal.reason;
        if (error instanceof ModelCallError) throw error;
        if (expired()) throw timedOut(this.timeoutMs);
        const classified = geminiCallError(error, request.signal);
        // An API error object inside the stream keeps its status; anything else broke the body.
        if (classified instanceof ModelCallError && classified.status !== null) throw classified;
        throw streamInterrupted(`the stream broke: ${error instanceof Error ? error.message : String(error)}`);
      }
      if (next.done) break;
      const chunk = next.value;
      const got = geminiBlocks(chunk, makeId).map((b) => (b.type === 'tool_use' ? { ...b, id: ids.unique(b.id) } : b));
      if (got.length > 0 && firstTokenAt === null) firstTokenAt = this.now();
      blocks.push(...got);
      const reason = geminiStopReason(chunk);
      if (reason !== null) stopReason = reason;
      if (chunk.usageMetadata) usage = geminiUsage(chunk.usageMetadata);
      // A call is whole in its chunk; a turn cut by MAX_TOKENS or blocked has none worth running, so report only under STOP or no reason yet.
      for (const b of got) if (b.type === 'tool_use' && b.inputError === undefined && (reason === null || reason === 'STOP')) options.onToolUse?.(b);
    }
    const content = mergeBlocks(blocks);
    const ttftMs = firstTokenAt === null ? null : Math.max(0, firstTokenAt - started);
    return { content, stopReason, stopClass: classifyGeminiStop(stopReason, content.some((b) => b.type === 'tool_use')), usage, ttftMs };
  }
}

const timedOut = (ms: number) => new ModelCallError('timeout', `the request timed out after ${ms} ms`, null, null, true);

/**
 * A signal for one call: aborted by the caller's signal or after `ms`. The
 * SDK hangs a listener on the signal it is given for every attempt and, for a
 * response it hands over, never takes it off: given the session's own signal,
 * a long session piled up one listener per model call. It gets this one,
 * released (and dropped) when the call ends.
 */
function callSignal(caller: AbortSignal | undefined, ms: number): { signal: AbortSignal; timedOut(): boolean; release(): void } {
  const controller = new AbortController();
  let expired = false;
  const onAbort = () => controller.abort(caller?.reason);
  if (caller?.aborted) controller.abort(caller.reason);
  else caller?.addEventListener('abort', onAbort, { once: true });
  const timer = setTimeout(() => {
    expired = true;
    controller.abort(new DOMException('the request timed out', 'TimeoutError'));
  }, ms);
  return {
    signal: controller.signal,
    timedOut: () => expired && caller?.aborted !== true,
    release: () => {
      clearTimeout(timer);
      caller?.removeEventListener('abort', onAbort);
    },
  };
}

/** The next chunk, or a `timeout` error when none comes for `ms` (a stalled stream). */
async function withinIdle<T>(next: Promise<T>, ms: number): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const idle = new Promise<never>((_resolve, reject) => {
    timer = setTimeout(() => reject(new ModelCallError('timeout', `the stream stalled: no stream data for ${ms} ms`, null, null, true)), ms);
  });
  try {
    return await Promise.race([next, idle]);
  } finally {
    clearTimeout(timer);
  }
}

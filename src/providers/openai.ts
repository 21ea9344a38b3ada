/**
 * OpenAIModel: the Model interface on the official `openai` client, Chat
 * Completions. Works with any OpenAI-compatible server via `baseURL`. SDK
 * retries are off (`maxRetries: 0`), see DESIGN §7.
 */
import OpenAI, { type OpenAIError } from 'openai';
import { toModelCallError, type ErrorFacts } from './classify-error.js';
import { fromOpenAICompletion, toOpenAIParams, type MaxTokensParam, type OpenAIParams } from './openai-mapping.js';
import type { Model, ModelRequest, ModelResponse, RequestInfo } from './types.js';

export const DEFAULT_TIMEOUT_MS = 300_000;

export interface OpenAIModelOptions {
  model: string;
  apiKey?: string;
  baseURL?: string;
  fetch?: typeof fetch;
  timeoutMs?: number;
  /** Strict tool use: the wire's strict schema subset plus `strict: true` on each tool (default false, see dialects/index.ts). */
  strictTools?: boolean;
  /** Default `max_completion_tokens`; use `max_tokens` for older OpenAI-compatible servers. */
  maxTokensParam?: MaxTokensParam;
}

function byteLength(value: unknown): number {
  return value === undefined ? 0 : Buffer.byteLength(JSON.stringify(value), 'utf8');
}

/** Reduce an SDK error to neutral facts by its class; never by message text. */
function openAIErrorFacts(error: OpenAIError): ErrorFacts {
  if (error instanceof OpenAI.APIConnectionTimeoutError) return { transport: 'timeout', message: error.message };
  if (error instanceof OpenAI.APIConnectionError) return { transport: 'connection', message: error.message };
  if (error instanceof OpenAI.APIError && typeof error.status === 'number') {
    return { transport: 'http', status: error.status, headers: error.headers, message: error.message };
  }
  return { transport: 'other', message: error.message };
}

export class OpenAIModel implements Model {
  readonly provider = 'openai';
  readonly model: string;
  private readonly strictTools: boolean;
  private readonly client: OpenAI;
  private readonly maxTokensParam: MaxTokensParam;

  constructor(options: OpenAIModelOptions) {
    this.model = options.model;
    this.strictTools = options.strictTools ?? false;
    this.maxTokensParam = options.maxTokensParam ?? 'max_completion_tokens';
    this.client = new OpenAI({
      ...(options.apiKey !== undefined ? { apiKey: options.apiKey } : {}),
      ...(options.baseURL !== undefined ? { baseURL: options.baseURL } : {}),
      ...(options.fetch !== undefined ? { fetch: options.fetch } : {}),
      maxRetries: 0,
      timeout: options.timeoutMs ?? DEFAULT_TIMEOUT_MS,
    });
  }

  describeRequest(request: ModelRequest): RequestInfo {
    const params = toOpenAIParams(this.model, request, this.maxTokensParam, { strict: this.strictTools });
    return { requestBytes: byteLength(params), toolsBytes: byteLength(params.tools), stream: false };
  }

  async complete(request: ModelRequest): Promise<ModelResponse> {
    const params = toOpenAIParams(this.model, request, this.maxTokensParam, { strict: this.strictTools });
    const completion = await this.send(params, request.signal);
    return { ...fromOpenAICompletion(completion), ttftMs: null };
  }

  /** The one wire call. Streaming (issue 5) replaces this seam with a chunk accumulator returning the same shape. */
  private async send(params: OpenAIParams, signal: AbortSignal | undefined): Promise<OpenAI.ChatCompletion> {
    try {
      return await this.client.chat.completions.create(params, signal ? { signal } : undefined);
    } catch (error) {
      // A user abort is not a provider error: surface it the way fetch does, and let the harness attribute it.
      if (error instanceof OpenAI.APIUserAbortError) throw signal?.reason ?? error;
      if (error instanceof OpenAI.OpenAIError) throw toModelCallError(openAIErrorFacts(error));
      throw error;
    }
  }
}

/**
 * AnthropicModel: the Model interface on the official @anthropic-ai/sdk client.
 * SDK retries are off (`maxRetries: 0`): retries are the harness's job and are
 * logged, and msw 2 hangs when the SDK cancels an error body to retry (DESIGN §7).
 */
import Anthropic, { type AnthropicError } from '@anthropic-ai/sdk';
import { fromAnthropicMessage, toAnthropicParams, type AnthropicParams } from './anthropic-mapping.js';
import { toModelCallError, type ErrorFacts } from './classify-error.js';
import type { Model, ModelRequest, ModelResponse, RequestInfo } from './types.js';

export const DEFAULT_TIMEOUT_MS = 300_000;

export interface AnthropicModelOptions {
  model: string;
  apiKey?: string;
  baseURL?: string;
  /** Custom fetch (tests, proxies). */
  fetch?: typeof fetch;
  timeoutMs?: number;
  /** Strict tool use: the wire's strict schema subset plus `strict: true` on each tool (default false, see dialects/index.ts). */
  strictTools?: boolean;
}

function byteLength(value: unknown): number {
  return value === undefined ? 0 : Buffer.byteLength(JSON.stringify(value), 'utf8');
}

/** Reduce an SDK error to neutral facts by its class; never by message text. */
function anthropicErrorFacts(error: AnthropicError): ErrorFacts {
  if (error instanceof Anthropic.APIConnectionTimeoutError) return { transport: 'timeout', message: error.message };
  if (error instanceof Anthropic.APIConnectionError) return { transport: 'connection', message: error.message };
  if (error instanceof Anthropic.APIError && typeof error.status === 'number') {
    return { transport: 'http', status: error.status, headers: error.headers, message: error.message };
  }
  return { transport: 'other', message: error.message };
}

export class AnthropicModel implements Model {
  readonly provider = 'anthropic';
  readonly model: string;
  private readonly strictTools: boolean;
  private readonly client: Anthropic;

  constructor(options: AnthropicModelOptions) {
    this.model = options.model;
    this.strictTools = options.strictTools ?? false;
    this.client = new Anthropic({
      ...(options.apiKey !== undefined ? { apiKey: options.apiKey } : {}),
      ...(options.baseURL !== undefined ? { baseURL: options.baseURL } : {}),
      ...(options.fetch !== undefined ? { fetch: options.fetch } : {}),
      maxRetries: 0,
      timeout: options.timeoutMs ?? DEFAULT_TIMEOUT_MS,
    });
  }

  describeRequest(request: ModelRequest): RequestInfo {
    const params = toAnthropicParams(this.model, request, { strict: this.strictTools });
    return { requestBytes: byteLength(params), toolsBytes: byteLength(params.tools), stream: false };
  }

  async complete(request: ModelRequest): Promise<ModelResponse> {
    const params = toAnthropicParams(this.model, request, { strict: this.strictTools });
    const message = await this.send(params, request.signal);
    return { ...fromAnthropicMessage(message), ttftMs: null };
  }

  /** The one wire call. Streaming (issue 5) replaces this seam with an SSE accumulator returning the same Message. */
  private async send(params: AnthropicParams, signal: AbortSignal | undefined): Promise<Anthropic.Message> {
    try {
      return await this.client.messages.create(params, signal ? { signal } : undefined);
    } catch (error) {
      // A user abort is not a provider error: surface it the way fetch does, and let the harness attribute it.
      if (error instanceof Anthropic.APIUserAbortError) throw signal?.reason ?? error;
      if (error instanceof Anthropic.AnthropicError) throw toModelCallError(anthropicErrorFacts(error));
      throw error;
    }
  }
}

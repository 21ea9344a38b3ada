/** What the mock decodes from any wire: the neutral request the harness sent. Recorded per session for assertions. */
import type { Message, ToolDefinition } from '../providers/types.js';
import type { Wire } from './wire-errors.js';

/** A tool as the request declared it (the lab reads strictness from the body itself, see lab/transcript.ts). */
export type DecodedTool = ToolDefinition;

export interface DecodedRequest {
  wire: Wire;
  model: string;
  system?: string;
  messages: Message[];
  tools: DecodedTool[];
  maxTokens: number | null;
  stream: boolean;
  /** OpenAI `stream_options.include_usage`: the stream ends with a usage chunk. */
  streamUsage?: boolean;
  /** Responses: the response this request continues (`previous_response_id`), already resolved into `messages`. */
  previousResponseId?: string;
  /** Responses: whether the response is kept for a later `previous_response_id` (`store`, default true). */
  store?: boolean;
  /** Gemini: how the stream is framed (the URL says: `?alt=sse` or the JSON array), absent when not streaming. */
  geminiStream?: 'sse' | 'json_array';
}

/** A failed check: the API's message and, on the OpenAI wires, its `param` and `code`. */
export interface RequestProblem {
  message: string;
  param?: string | null;
  code?: string | null;
  /** HTTP status (default 400). */
  status?: number;
}

/** What the mock decodes from either wire: the neutral request the harness sent. Recorded per session for assertions. */
import type { Message, ToolDefinition } from '../providers/types.js';
import type { Wire } from './wire-errors.js';

export interface DecodedRequest {
  wire: Wire;
  model: string;
  system?: string;
  messages: Message[];
  tools: ToolDefinition[];
  maxTokens: number | null;
  stream: boolean;
  /** OpenAI `stream_options.include_usage`: the stream ends with a usage chunk. */
  streamUsage?: boolean;
}

/** A failed decode carries the offending field path (OpenAI reports it as `param`). */
export type DecodeResult<T> = { ok: true; value: T } | { ok: false; message: string; path: string | null };

type Issue = { path: ReadonlyArray<PropertyKey>; message: string };

/** Zod issues -> a failed decode, worded in the APIs' `path: problem` style. */
export function decodeFailure(issues: ReadonlyArray<Issue>): { ok: false; message: string; path: string | null } {
  const first = issues[0];
  if (!first) return { ok: false, message: 'invalid request body', path: null };
  const path = first.path.map(String).join('.');
  return path === '' ? { ok: false, message: first.message, path: null } : { ok: false, message: `${path}: ${first.message}`, path };
}

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
}

export type DecodeResult<T> = { ok: true; value: T } | { ok: false; message: string };

/** Zod issues -> one line in the APIs' `path: problem` style. */
export function issuesMessage(issues: ReadonlyArray<{ path: ReadonlyArray<PropertyKey>; message: string }>): string {
  const first = issues[0];
  if (!first) return 'invalid request body';
  const path = first.path.map(String).join('.');
  return path === '' ? first.message : `${path}: ${first.message}`;
}

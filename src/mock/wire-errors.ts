/**
 * The real error envelopes of each API, so SDKs parse mock errors exactly as
 * live ones: Anthropic `{type:"error", error:{type, message}}`, OpenAI (Chat
 * Completions and Responses alike) `{error:{message, type, param, code}}`,
 * Gemini `{error:{code, message, status, details?}}` (gemini-errors.ts).
 */
import { geminiError } from './gemini-errors.js';
/** The four wires: Anthropic Messages, OpenAI Chat Completions, OpenAI Responses, Gemini generateContent. */
export type Wire = 'anthropic' | 'openai' | 'responses' | 'gemini';
export const WIRES: readonly Wire[] = ['anthropic', 'openai', 'responses', 'gemini'];

import type { HttpReply } from './http-reply.js';
export type { HttpReply } from './http-reply.js';

const ANTHROPIC_TYPES: Readonly<Record<number, string>> = {
  400: 'invalid_request_error',
  401: 'authentication_error',
  403: 'permission_error',
  404: 'not_found_error',
  413: 'request_too_large',
  429: 'rate_limit_error',
  500: 'api_error',
  529: 'overloaded_error',
};

const OPENAI_TYPES: Readonly<Record<number, { type: string; code: string | null }>> = {
  400: { type: 'invalid_request_error', code: null },
  401: { type: 'invalid_request_error', code: 'invalid_api_key' },
  404: { type: 'invalid_request_error', code: 'model_not_found' },
  429: { type: 'requests', code: 'rate_limit_exceeded' },
  500: { type: 'server_error', code: null },
};

const JSON_HEADERS = { 'content-type': 'application/json' };

export function anthropicError(status: number, message: string, type?: string, headers: Record<string, string> = {}): HttpReply {
  const errorType = type ?? ANTHROPIC_TYPES[status] ?? (status >= 500 ? 'api_error' : 'invalid_request_error');
  const body = { type: 'error', error: { type: errorType, message } };
  return { status, headers: { ...JSON_HEADERS, ...headers }, body: JSON.stringify(body) };
}

export interface OpenAIErrorFields {
  type?: string;
  param?: string | null;
  code?: string | null;
}

export function openaiError(status: number, message: string, fields: OpenAIErrorFields = {}, headers: Record<string, string> = {}): HttpReply {
  const defaults = OPENAI_TYPES[status] ?? { type: status >= 500 ? 'server_error' : 'invalid_request_error', code: null };
  const error = { message, type: fields.type ?? defaults.type, param: fields.param ?? null, code: fields.code ?? defaults.code };
  return { status, headers: { ...JSON_HEADERS, ...headers }, body: JSON.stringify({ error }) };
}

/** A request-check failure in the wire's envelope (OpenAI wires carry param and code). */
export function problemReply(wire: Wire, problem: { message: string; param?: string | null; code?: string | null; status?: number }): HttpReply {
  const status = problem.status ?? 400;
  if (wire === 'anthropic') return anthropicError(status, problem.message);
  if (wire === 'gemini') return geminiError(status, problem.message);
  return openaiError(status, problem.message, { param: problem.param ?? null, code: problem.code ?? null });
}

/** An error with the wire's default type for the status. */
export function wireError(wire: Wire, status: number, message: string, headers: Record<string, string> = {}): HttpReply {
  if (wire === 'gemini') return geminiError(status, message, undefined, headers);
  return wire === 'anthropic' ? anthropicError(status, message, undefined, headers) : openaiError(status, message, {}, headers);
}

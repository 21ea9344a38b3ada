/**
 * Plausible answers for the endpoints around the conversation that real
 * harnesses call (side requests, see side-requests.ts): token counting
 * (`/v1/messages/count_tokens`, `/v1/responses/input_tokens`), model listing
 * (`/v1/models[/<id>]`), `HEAD` probes of the base URL, and a 404 in the
 * wire's envelope for anything else.
 */
import type { SideReason } from './side-requests.js';
import { wireError, type HttpReply, type Wire } from './wire-errors.js';

export type SideRoute = { kind: 'count_tokens' } | { kind: 'models'; id?: string } | { kind: 'probe' } | { kind: 'unknown_route'; method: string; path: string };

/** The model every listing offers (any name is accepted on the conversation routes). */
export const MOCK_MODEL_ID = 'faultline-mock';

const json = (status: number, body: unknown): HttpReply => ({ status, headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) });

/** A rough token count (bytes / 4): harnesses use it to decide on compaction, not to bill. */
const estimateTokens = (bodyText: string) => Math.max(1, Math.ceil(Buffer.byteLength(bodyText, 'utf8') / 4));

function model(wire: Wire, id: string): unknown {
  if (wire === 'gemini') {
    return { name: `models/${id}`, version: '001', displayName: 'faultline scripted mock', inputTokenLimit: 1048576, outputTokenLimit: 65536, supportedGenerationMethods: ['generateContent', 'countTokens'] };
  }
  return wire === 'anthropic'
    ? { type: 'model', id, display_name: 'faultline scripted mock', created_at: '2025-01-01T00:00:00Z' }
    : { id, object: 'model', created: 1735689600, owned_by: 'faultline' };
}

export function sideRouteReply(wire: Wire, route: SideRoute, bodyText: string): { reply: HttpReply; side: SideReason } {
  switch (route.kind) {
    case 'count_tokens': {
      const tokens = estimateTokens(bodyText);
      const counted = wire === 'anthropic' ? { input_tokens: tokens } : wire === 'gemini' ? { totalTokens: tokens } : { object: 'response.input_tokens', input_tokens: tokens };
      return { reply: json(200, counted), side: 'count_tokens' };
    }
    case 'models': {
      if (route.id !== undefined) return { reply: json(200, model(wire, route.id)), side: 'models' };
      if (wire === 'gemini') return { reply: json(200, { models: [model(wire, MOCK_MODEL_ID)] }), side: 'models' };
      const list = wire === 'anthropic' ? { data: [model(wire, MOCK_MODEL_ID)], has_more: false, first_id: MOCK_MODEL_ID, last_id: MOCK_MODEL_ID } : { object: 'list', data: [model(wire, MOCK_MODEL_ID)] };
      return { reply: json(200, list), side: 'models' };
    }
    case 'probe':
      return { reply: { status: 200, headers: { 'content-type': 'text/plain' }, body: '' }, side: 'probe' };
    case 'unknown_route':
      return { reply: wireError(wire, 404, `no route for ${route.method} ${route.path} (faultline mock: /v1/messages, /v1/chat/completions, /v1/responses, /v1beta/models/{model}:generateContent)`), side: 'unknown_route' };
  }
}

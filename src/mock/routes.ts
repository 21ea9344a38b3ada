/**
 * URL -> what the request is, for the loopback mount: which session (the
 * `/s/<id>` prefix, or the root default), which wire, and whether it is the
 * conversation endpoint or a side route (count_tokens, models, a probe). Query
 * strings (`?beta=true`, sent by the Anthropic SDK's beta client) are ignored.
 */
import { geminiMethodOf } from './gemini-call.js';
import type { SideRoute } from './side-routes.js';
import type { Wire } from './wire-errors.js';

export interface Target {
  /** Session id from `/s/<id>`, null for the root routes. */
  sid: string | null;
  wire: Wire;
  /** Absent for the conversation endpoint itself. */
  route?: SideRoute;
}

const CONVERSATION: ReadonlyArray<[string, Wire]> = [
  ['/v1/messages', 'anthropic'],
  ['/v1/chat/completions', 'openai'],
  ['/v1/responses', 'responses'],
];

/** Side routes that say no wire of their own (models, probes) answer in the wire the headers suggest. */
function guessWire(headers: Record<string, string | string[] | undefined>, path: string): Wire {
  if (headers['x-goog-api-key'] !== undefined || /^\/(v1beta|v1alpha)\//.test(path)) return 'gemini';
  return headers['anthropic-version'] !== undefined || headers['x-api-key'] !== undefined ? 'anthropic' : 'openai';
}

/** The root conversation endpoints, answered on every call of a suite run: looked up before any pattern. */
const ROOT_CONVERSATION: ReadonlyMap<string, Target> = new Map(CONVERSATION.map(([suffix, wire]) => [suffix, Object.freeze({ sid: null, wire })]));

export function routeOf(method: string, url: string, headers: Record<string, string | string[] | undefined>): Target {
  const query = url.indexOf('?');
  const path = query === -1 ? url : url.slice(0, query);
  if (method === 'POST') {
    const root = ROOT_CONVERSATION.get(path);
    if (root !== undefined) return root;
  }
  const scoped = /^\/s\/([A-Za-z0-9_-]+)(\/.*)?$/.exec(path);
  const sid = scoped ? (scoped[1] as string) : null;
  const rest = (scoped ? (scoped[2] ?? '/') : path).replace(/\/+$/, '') || '/';
  if (method === 'POST') {
    const conversation = CONVERSATION.find(([suffix]) => rest === suffix);
    if (conversation) return { sid, wire: conversation[1] };
    if (rest === '/v1/messages/count_tokens') return { sid, wire: 'anthropic', route: { kind: 'count_tokens' } };
    if (rest === '/v1/responses/input_tokens') return { sid, wire: 'responses', route: { kind: 'count_tokens' } };
    const gemini = geminiMethodOf(rest);
    if (gemini) return gemini.method === 'countTokens' ? { sid, wire: 'gemini', route: { kind: 'count_tokens' } } : { sid, wire: 'gemini' };
  }
  const wire = guessWire(headers, rest);
  const listing = method === 'GET' ? /^\/(v1beta|v1|v1alpha)\/models(?:\/([^/:]+))?$/.exec(rest) : null;
  if (listing && wire === 'gemini') return { sid, wire, route: listing[2] === undefined ? { kind: 'models' } : { kind: 'models', id: decodeURIComponent(listing[2]) } };
  if (method === 'HEAD' || method === 'OPTIONS') return { sid, wire, route: { kind: 'probe' } };
  if (method === 'GET' && rest === '/v1/models') return { sid, wire, route: { kind: 'models' } };
  const model = method === 'GET' ? /^\/v1\/models\/([^/]+)$/.exec(rest) : null;
  if (model) return { sid, wire, route: { kind: 'models', id: decodeURIComponent(model[1] as string) } };
  return { sid, wire, route: { kind: 'unknown_route', method, path: rest } };
}

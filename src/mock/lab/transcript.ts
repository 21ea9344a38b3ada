/**
 * A lenient, wire-neutral reading of one recorded request body for the lab's
 * conformance checks: the messages as the harness framed them (NOT merged, so
 * a split is visible), the tool_use ids and tool results in each, and the
 * tools and system prompt as sent. Unlike the request check it never rejects:
 * a request the mock answered with a 400 is exactly what the checks must see.
 * A Responses request that continues a stored response (`previous_response_id`)
 * is read with that response's conversation in front of it.
 */
import { isObject, isString, partsText, type JsonObject } from '../json-shape.js';
import type { Wire } from '../wire-errors.js';

export interface WireToolUse {
  id: string;
  name: string;
  /** The arguments as resent: compact JSON of the parsed input, or the raw text when it does not parse. */
  input: string;
}

export interface WireToolResult {
  id: string;
  text: string;
  /** Anthropic's `is_error`; null on the OpenAI wires, which have no such flag. */
  isError: boolean | null;
  bytes: number;
}

export interface WireMessage {
  role: 'user' | 'assistant' | 'system' | 'tool';
  uses: WireToolUse[];
  results: WireToolResult[];
  text: string;
  /** Its blocks in order: R a tool result, T anything else (text, images). */
  kinds: string;
  /** Compact JSON of the message (or item) as sent: to see an earlier turn rewritten. */
  raw: string;
}

export interface WireTool {
  name: string;
  description: string;
  strict: boolean;
  schema: JsonObject;
  /** Compact JSON of this tool as sent. */
  json: string;
}

export interface Transcript {
  wire: Wire;
  messages: WireMessage[];
  tools: WireTool[];
  /** Compact JSON of the whole tools array as sent ('' when the request carried none). */
  toolsJson: string;
  system: string;
  /** Responses: the response this request continues. */
  previousResponseId: string | null;
}

const bytes = (text: string) => Buffer.byteLength(text, 'utf8');
const result = (id: string, content: unknown, isError: boolean | null): WireToolResult => {
  const text = partsText(content);
  return { id, text, isError, bytes: bytes(text) };
};
const message = (role: WireMessage['role'], parts: Partial<WireMessage> = {}): WireMessage => ({ role, uses: [], results: [], text: '', kinds: role === 'tool' ? 'R' : 'T', raw: '', ...parts });

/** Compact JSON with object keys sorted and cache_control markers left out (a harness moves its breakpoint every turn): two encodings of one message compare equal. */
export function canonical(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map(canonical).join(',')}]`;
  if (isObject(value)) return `{${Object.keys(value).filter((k) => k !== 'cache_control').sort().map((k) => `${JSON.stringify(k)}:${canonical(value[k])}`).join(',')}}`;
  return JSON.stringify(value) ?? 'null';
}

/** Arguments as a canonical input: an object's JSON, else the raw text (malformed arguments stay visible as such). */
function argumentsOf(raw: unknown): string {
  if (!isString(raw)) return canonical(raw ?? {});
  try {
    return canonical(JSON.parse(raw));
  } catch {
    return raw;
  }
}

function anthropicMessages(body: JsonObject): WireMessage[] {
  const raw = Array.isArray(body['messages']) ? body['messages'] : [];
  return raw.filter(isObject).map((m) => {
    const role = m['role'] === 'assistant' ? 'assistant' : m['role'] === 'system' ? 'system' : 'user';
    const content = isString(m['content']) ? [{ type: 'text', text: m['content'] }] : Array.isArray(m['content']) ? m['content'].filter(isObject) : [];
    return message(role, {
      raw: canonical(m),
      kinds: content.map((b) => (b['type'] === 'tool_result' ? 'R' : 'T')).join(''),
      uses: content.flatMap((b) => (b['type'] === 'tool_use' && isString(b['id']) ? [{ id: b['id'], name: String(b['name']), input: argumentsOf(b['input']) }] : [])),
      results: content.flatMap((b) => (b['type'] === 'tool_result' && isString(b['tool_use_id']) ? [result(b['tool_use_id'], b['content'], b['is_error'] === true)] : [])),
      text: content.flatMap((b) => (b['type'] === 'text' && isString(b['text']) ? [b['text']] : [])).join('\n'),
    });
  });
}

function openaiMessages(body: JsonObject): WireMessage[] {
  const raw = Array.isArray(body['messages']) ? body['messages'] : [];
  return raw.filter(isObject).map((m) => {
    const role = m['role'];
    const raw = canonical(m);
    if (role === 'tool') return message('tool', { raw, results: [result(String(m['tool_call_id']), m['content'], null)] });
    if (role === 'assistant') {
      const calls = Array.isArray(m['tool_calls']) ? m['tool_calls'].filter(isObject) : [];
      const uses = calls.map((c) => {
        const fn = isObject(c['function']) ? c['function'] : isObject(c['custom']) ? c['custom'] : {};
        return { id: String(c['id']), name: String(fn['name']), input: argumentsOf(fn['arguments'] ?? fn['input']) };
      });
      return message('assistant', { raw, uses, text: partsText(m['content']) });
    }
    return message(role === 'system' || role === 'developer' ? 'system' : 'user', { raw, text: partsText(m['content']) });
  });
}

/** Input items -> messages: each item is its own message, so the checks see how outputs and calls are interleaved. */
function responsesMessages(items: readonly unknown[]): WireMessage[] {
  return items.filter(isObject).flatMap((item): WireMessage[] => {
    const type = item['type'] ?? 'message';
    const raw = canonical(item);
    if (type === 'function_call') return [message('assistant', { raw, uses: [{ id: String(item['call_id']), name: String(item['name']), input: argumentsOf(item['arguments']) }] })];
    if (type === 'function_call_output') return [message('tool', { raw, results: [result(String(item['call_id']), item['output'], null)] })];
    if (type === 'reasoning') return [message('assistant', { raw })];
    if (type !== 'message') return [];
    const role = item['role'] === 'assistant' ? 'assistant' : item['role'] === 'system' || item['role'] === 'developer' ? 'system' : 'user';
    return [message(role, { raw, text: partsText(item['content']) })];
  });
}

/**
 * Gemini contents -> messages: a `model` content is the assistant's (its
 * functionCall parts the uses), a `user` content the user's (its
 * functionResponse parts the results, kinds in part order). A response
 * without the call's `id` (ids are optional on this API) answers the
 * earliest unanswered call of the last call turn with its name.
 */
function geminiMessages(body: JsonObject): WireMessage[] {
  const raw = Array.isArray(body['contents']) ? body['contents'] : [];
  let pending: WireToolUse[] = [];
  return raw.filter(isObject).map((c, turn) => {
    const parts = Array.isArray(c['parts']) ? c['parts'].filter(isObject) : [];
    const text = parts.flatMap((p) => (isString(p['text']) && p['thought'] !== true ? [p['text']] : [])).join('\n');
    if (c['role'] === 'model') {
      const uses = parts.flatMap((p, i) => {
        const fn = p['functionCall'];
        return isObject(fn) ? [{ id: isString(fn['id']) ? fn['id'] : `${String(fn['name'])}#${turn}.${i}`, name: String(fn['name']), input: argumentsOf(fn['args'] ?? {}) }] : [];
      });
      if (uses.length > 0) pending = [...uses];
      return message('assistant', { raw: canonical(c), uses, text });
    }
    // Exact ids first: a response with an id no call of the turn has is an orphan, never re-paired by name.
    const ids = new Set(parts.flatMap((p) => (isObject(p['functionResponse']) && isString(p['functionResponse']['id']) ? [p['functionResponse']['id']] : [])));
    const results = parts.flatMap((p) => {
      const fn = p['functionResponse'];
      if (!isObject(fn)) return [];
      const byId = isString(fn['id']) ? pending.find((u) => u.id === fn['id']) : undefined;
      // By name only for a response without an id, or for calls that came without ids (made up here as name#turn.part).
      const byName = !isString(fn['id']) || pending.every((u) => u.id.includes('#'));
      const paired = byId ?? (byName ? pending.find((u) => u.name === fn['name'] && !ids.has(u.id)) : undefined);
      if (paired) pending = pending.filter((u) => u !== paired);
      const response = fn['response'];
      const error = isObject(response) && response['error'] !== undefined && response['error'] !== null;
      const content = isObject(response) && Object.keys(response).length === 1 && isString(response['output']) ? response['output'] : isObject(response) && error && isString(response['error']) ? response['error'] : JSON.stringify(response ?? null);
      return [{ ...result(paired?.id ?? (isString(fn['id']) ? fn['id'] : String(fn['name'])), content, error) }];
    });
    return message('user', { raw: canonical(c), results, text, kinds: parts.map((p) => (isObject(p['functionResponse']) ? 'R' : 'T')).join('') });
  });
}

function geminiTools(raw: unknown): WireTool[] {
  if (!Array.isArray(raw)) return [];
  return raw.filter(isObject).flatMap((t) => {
    const declarations = Array.isArray(t['functionDeclarations']) ? t['functionDeclarations'].filter(isObject) : [];
    return declarations.map((fn) => {
      const schema = fn['parametersJsonSchema'] ?? fn['parameters'];
      return { name: String(fn['name'] ?? ''), description: isString(fn['description']) ? fn['description'] : '', strict: false, schema: isObject(schema) ? schema : {}, json: JSON.stringify(fn) };
    });
  });
}

function tools(wire: Wire, raw: unknown): WireTool[] {
  if (wire === 'gemini') return geminiTools(raw);
  if (!Array.isArray(raw)) return [];
  return raw.filter(isObject).map((t) => {
    const fn = wire === 'openai' ? (isObject(t['function']) ? t['function'] : isObject(t['custom']) ? t['custom'] : {}) : t;
    const schema = wire === 'anthropic' ? t['input_schema'] : fn['parameters'];
    return {
      name: String(fn['name'] ?? t['type'] ?? ''),
      description: isString(fn['description']) ? fn['description'] : '',
      strict: fn['strict'] === true,
      schema: isObject(schema) ? schema : {},
      json: JSON.stringify(t),
    };
  });
}

function systemText(wire: Wire, body: JsonObject, messages: WireMessage[]): string {
  if (wire === 'gemini') {
    const system = body['systemInstruction'] ?? body['system_instruction'];
    return isString(system) ? system : isObject(system) ? partsText(system['parts']) : '';
  }
  if (wire === 'anthropic') {
    const system = body['system'];
    return isString(system) ? system : Array.isArray(system) ? partsText(system) : '';
  }
  const leading = messages.filter((m) => m.role === 'system').map((m) => m.text);
  return [...(wire === 'responses' && isString(body['instructions']) ? [body['instructions']] : []), ...leading].join('\n');
}

/**
 * `history` gives a stored Responses conversation by response id: the
 * transcript messages of the request that produced it plus what the mock
 * answered (see lab/session-transcripts.ts).
 */
export function readTranscript(wire: Wire, bodyText: string, history: (responseId: string) => WireMessage[] | null = () => null): Transcript | null {
  let body: unknown;
  try {
    body = JSON.parse(bodyText);
  } catch {
    return null;
  }
  if (!isObject(body)) return null;
  const previous = wire === 'responses' && isString(body['previous_response_id']) ? body['previous_response_id'] : null;
  let messages: WireMessage[];
  if (wire === 'anthropic') messages = anthropicMessages(body);
  else if (wire === 'openai') messages = openaiMessages(body);
  else if (wire === 'gemini') messages = geminiMessages(body);
  else {
    const input = body['input'];
    const items = isString(input) ? [{ role: 'user', content: input }] : Array.isArray(input) ? input : [];
    messages = [...(previous !== null ? (history(previous) ?? []) : []), ...responsesMessages(items)];
  }
  const sent = tools(wire, body['tools']);
  return {
    wire,
    messages,
    tools: sent,
    toolsJson: Array.isArray(body['tools']) && body['tools'].length > 0 ? JSON.stringify(body['tools']) : '',
    system: systemText(wire, body, messages),
    previousResponseId: previous,
  };
}

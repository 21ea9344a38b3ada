/**
 * Protocol checks the real Responses API makes on the full item history
 * (stored history plus input), with its 400 texts (param `input`): every
 * function_call needs a function_call_output after it, every output a call
 * before it, and a function_call or reasoning item sent back by id must keep
 * the pair it was emitted in (reasoning models: "provided without its
 * required 'reasoning' item" / "without its required following item").
 */
import type { RequestProblem } from './decoded-request.js';
import { isString, type JsonObject } from './json-shape.js';
import type { ResponseStore } from './response-store.js';

const problem = (message: string): RequestProblem => ({ message, param: 'input', code: null });

function pairing(items: readonly JsonObject[]): RequestProblem | null {
  const called = new Set<string>();
  for (const item of items) {
    if (item['type'] === 'function_call' && isString(item['call_id'])) called.add(item['call_id']);
    if (item['type'] === 'function_call_output' && isString(item['call_id']) && !called.has(item['call_id'])) {
      return problem(`No tool call found for function call output with call_id ${item['call_id']}.`);
    }
  }
  const answered = new Set(items.flatMap((i) => (i['type'] === 'function_call_output' && isString(i['call_id']) ? [i['call_id']] : [])));
  const unanswered = items.find((i) => i['type'] === 'function_call' && isString(i['call_id']) && !answered.has(i['call_id']));
  return unanswered ? problem(`No tool output found for function call ${String(unanswered['call_id'])}.`) : null;
}

function reasoningPairs(items: readonly JsonObject[], store: ResponseStore): RequestProblem | null {
  const ids = items.map((i) => (isString(i['id']) ? i['id'] : null));
  for (let i = 0; i < items.length; i++) {
    const id = ids[i] ?? null;
    const emitted = id === null ? null : store.emitted(id);
    if (emitted === null) continue;
    const type = String(items[i]!['type']);
    if (emitted.reasoningId !== null && !ids.slice(0, i).includes(emitted.reasoningId)) {
      return problem(`Item '${id}' of type '${type}' was provided without its required 'reasoning' item: '${emitted.reasoningId}'.`);
    }
    if (type === 'reasoning' && emitted.nextId !== null && ids[i + 1] !== emitted.nextId) {
      return problem(`Item '${id}' of type 'reasoning' was provided without its required following item.`);
    }
  }
  return null;
}

export function checkResponsesPairing(items: readonly JsonObject[], store: ResponseStore): RequestProblem | null {
  return reasoningPairs(items, store) ?? pairing(items);
}

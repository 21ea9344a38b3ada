/**
 * Protocol checks the Gemini API makes on `contents`, with its 400 texts
 * (status INVALID_ARGUMENT): a function call turn (a `model` content with
 * functionCall parts) must come right after a user turn or a function
 * response turn; a function response turn must come right after the function
 * call turn it answers, with as many functionResponse parts as that turn had
 * functionCall parts. Consecutive turns of one role are accepted (the API
 * merges them), so nothing else about alternation is refused.
 */
import type { RequestProblem } from './decoded-request.js';
import { isObject, type JsonObject } from './json-shape.js';

export const CALL_AFTER_USER = 'Please ensure that function call turn comes immediately after a user turn or after a function response turn.';
export const RESPONSE_AFTER_CALL = 'Please ensure that function response turn comes immediately after a function call turn.';
export const RESPONSE_COUNT = 'Please ensure that the number of function response parts is equal to the number of function call parts of the function call turn.';

const parts = (content: JsonObject): JsonObject[] => (Array.isArray(content['parts']) ? content['parts'].filter(isObject) : []);
const calls = (content: JsonObject) => parts(content).filter((p) => isObject(p['functionCall'] ?? p['function_call'])).length;
const responses = (content: JsonObject) => parts(content).filter((p) => isObject(p['functionResponse'] ?? p['function_response'])).length;
const isModel = (content: JsonObject) => content['role'] === 'model';

export function checkGeminiTurns(contents: readonly unknown[]): RequestProblem | null {
  const list = contents.filter(isObject);
  for (let i = 0; i < list.length; i++) {
    const content = list[i] as JsonObject;
    const previous = i > 0 ? (list[i - 1] as JsonObject) : null;
    if (isModel(content) && calls(content) > 0 && (previous === null || isModel(previous))) return { message: CALL_AFTER_USER };
    // The turn after a call turn answers every call (a user turn with no responses answers none of them).
    const following = list[i + 1];
    if (isModel(content) && calls(content) > 0 && following !== undefined && !isModel(following) && responses(following) !== calls(content)) return { message: RESPONSE_COUNT };
    if (!isModel(content) && responses(content) > 0) {
      if (previous === null || !isModel(previous) || calls(previous) === 0) return { message: RESPONSE_AFTER_CALL };
      if (responses(content) !== calls(previous)) return { message: RESPONSE_COUNT };
    }
  }
  return null;
}

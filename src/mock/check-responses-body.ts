/**
 * The Responses API's body validation, as permissive as the real API and
 * worded as it words its 400s. `input` is a string or a list of items: easy
 * messages (no `type`), messages, function_call / function_call_output,
 * reasoning, item_reference and the many built-in tool items (web search,
 * computer, shell, MCP, ...), which pass unread. Any other top-level parameter
 * (`reasoning`, `include`, `text`, `truncation`, `parallel_tool_calls`,
 * `prompt_cache_key`, ...) passes too.
 */
import type { RequestProblem } from './decoded-request.js';
import { isObject, isString } from './json-shape.js';
import { invalidType, invalidValue, missing } from './openai-problems.js';
import { strictSchemaRejection } from './strict-schema.js';
import { perSharedTools } from './shared-tools.js';

const ROLES = ['assistant', 'system', 'developer', 'user'];

function checkItem(item: unknown, i: number): RequestProblem | null {
  const at = `input[${i}]`;
  if (!isObject(item)) return invalidType(at, 'an object', item);
  const type = item['type'] ?? 'message';
  switch (type) {
    case 'message': {
      if (!('role' in item)) return missing(`${at}.role`);
      if (!ROLES.includes(String(item['role']))) return invalidValue(`${at}.role`, item['role'], ROLES);
      if (!('content' in item)) return missing(`${at}.content`);
      if (!isString(item['content']) && !Array.isArray(item['content'])) return invalidType(`${at}.content`, 'one of a string or array of input item content', item['content']);
      return null;
    }
    case 'function_call':
      for (const key of ['call_id', 'name', 'arguments']) if (!isString(item[key])) return missing(`${at}.${key}`);
      return null;
    case 'function_call_output':
      if (!isString(item['call_id'])) return missing(`${at}.call_id`);
      if (!('output' in item)) return missing(`${at}.output`);
      return null;
    case 'reasoning':
      if (!Array.isArray(item['summary'])) return missing(`${at}.summary`);
      return null;
    case 'item_reference':
      if (!isString(item['id'])) return missing(`${at}.id`);
      return null;
    default:
      return null;
  }
}

/** Remembered per shared definitions array (shared-tools.ts): it reads nothing but the array. */
const checkTools = perSharedTools(checkToolsOnce);

function checkToolsOnce(tools: unknown): RequestProblem | null {
  if (tools === undefined || tools === null) return null;
  if (!Array.isArray(tools)) return invalidType('tools', 'an array', tools);
  for (let i = 0; i < tools.length; i++) {
    const tool = tools[i];
    if (!isObject(tool)) return invalidType(`tools[${i}]`, 'an object', tool);
    if (!('type' in tool)) return missing(`tools[${i}].type`);
    if (tool['type'] === 'function' && !isString(tool['name'])) return missing(`tools[${i}].name`);
    // Only an explicit `strict: true` is checked: rejecting what the API might take is worse than letting it pass.
    const strict = tool['type'] === 'function' && tool['strict'] === true ? strictSchemaRejection(String(tool['name']), tool['parameters'], `tools[${i}].parameters`) : null;
    if (strict !== null) return strict;
  }
  return null;
}

/** The first problem with a Responses body, as the API reports it, or null. */
export function checkResponsesBody(body: unknown): RequestProblem | null {
  if (!isObject(body)) return { message: 'We could not parse the JSON body of your request.', param: null, code: null };
  if (!isString(body['model'])) return missing('model');
  const input = body['input'];
  if (input !== undefined && !isString(input) && !Array.isArray(input)) return invalidType('input', 'one of a string or array of input items', input);
  if (Array.isArray(input)) for (let i = 0; i < input.length; i++) {
    const problem = checkItem(input[i], i);
    if (problem !== null) return problem;
  }
  if ('previous_response_id' in body && body['previous_response_id'] !== null && !isString(body['previous_response_id'])) {
    return invalidType('previous_response_id', 'a string', body['previous_response_id']);
  }
  return checkTools(body['tools']);
}

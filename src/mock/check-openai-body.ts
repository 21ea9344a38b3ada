/**
 * The Chat Completions API's body validation, as permissive as the real API
 * and worded as it words its 400s (message, `param`, `code`). Accepted as the
 * API accepts them: `developer` and legacy `function` roles, content as a
 * string or a list of parts (text, image_url, input_audio, file; refusal on
 * assistant messages), assistant messages with null content, `refusal`,
 * `audio` or `function_call`, `custom` tools and tool calls, and any other
 * top-level parameter (`parallel_tool_calls`, `stream_options`, `metadata`,
 * `response_format`, `reasoning_effort`, ...), which the mock does not read.
 */
import type { RequestProblem } from './decoded-request.js';
import { isObject, isString } from './json-shape.js';
import { invalidType, invalidValue, missing } from './openai-problems.js';
import { strictSchemaRejection } from './strict-schema.js';
import { perSharedTools } from './shared-tools.js';

const ROLES = ['system', 'assistant', 'user', 'function', 'tool', 'developer'];
const PART_TYPES = ['text', 'image_url', 'input_audio', 'refusal', 'audio', 'file'];
const FUNCTION_NAME = /^[a-zA-Z0-9_-]+$/;

function checkContent(content: unknown, param: string, nullable: boolean): RequestProblem | null {
  if (isString(content) || (nullable && (content === null || content === undefined))) return null;
  if (!Array.isArray(content)) return invalidType(param, 'one of a string or array of objects', content);
  for (let i = 0; i < content.length; i++) {
    const part = content[i];
    const at = `${param}[${i}]`;
    if (!isObject(part)) return invalidType(at, 'an object', part);
    if (!('type' in part)) return missing(`${at}.type`);
    if (!PART_TYPES.includes(String(part['type']))) return invalidValue(`${at}.type`, part['type'], PART_TYPES);
    if (part['type'] === 'text' && !isString(part['text'])) return missing(`${at}.text`);
  }
  return null;
}

function checkToolCalls(calls: unknown, param: string): RequestProblem | null {
  if (calls === undefined || calls === null) return null;
  if (!Array.isArray(calls)) return invalidType(param, 'an array', calls);
  for (let i = 0; i < calls.length; i++) {
    const call = calls[i];
    const at = `${param}[${i}]`;
    if (!isObject(call)) return invalidType(at, 'an object', call);
    if (!isString(call['id'])) return missing(`${at}.id`);
    const kind = call['type'] === 'custom' ? 'custom' : 'function';
    const fn = call[kind];
    if (!isObject(fn)) return missing(`${at}.${kind}`);
    if (!isString(fn['name'])) return missing(`${at}.${kind}.name`);
    if (kind === 'function' && !isString(fn['arguments'])) return missing(`${at}.function.arguments`);
  }
  return null;
}

function checkMessage(message: unknown, i: number): RequestProblem | null {
  const at = `messages[${i}]`;
  if (!isObject(message)) return invalidType(at, 'an object', message);
  if (!('role' in message)) return missing(`${at}.role`);
  const role = message['role'];
  if (!ROLES.includes(String(role))) return invalidValue(`${at}.role`, role, ROLES);
  if (role === 'assistant') {
    const hasCalls = Array.isArray(message['tool_calls']) && message['tool_calls'].length > 0;
    if (message['content'] === undefined && !hasCalls && message['function_call'] === undefined && message['audio'] === undefined && message['refusal'] === undefined) {
      return missing(`${at}.content`);
    }
    return checkContent(message['content'], `${at}.content`, true) ?? checkToolCalls(message['tool_calls'], `${at}.tool_calls`);
  }
  if (!('content' in message)) return missing(`${at}.content`);
  if (role === 'tool' && !isString(message['tool_call_id'])) return missing(`${at}.tool_call_id`);
  if (role === 'function' && !isString(message['name'])) return missing(`${at}.name`);
  return checkContent(message['content'], `${at}.content`, role === 'function');
}

/** Remembered per shared definitions array (shared-tools.ts): it reads nothing but the array. */
const checkTools = perSharedTools(checkToolsOnce);

function checkToolsOnce(tools: unknown): RequestProblem | null {
  if (tools === undefined || tools === null) return null;
  if (!Array.isArray(tools)) return invalidType('tools', 'an array', tools);
  for (let i = 0; i < tools.length; i++) {
    const tool = tools[i];
    const at = `tools[${i}]`;
    if (!isObject(tool)) return invalidType(at, 'an object', tool);
    if (!('type' in tool)) return missing(`${at}.type`);
    if (tool['type'] !== 'function' && tool['type'] !== 'custom') return invalidValue(`${at}.type`, tool['type'], ['function', 'custom']);
    const fn = tool[String(tool['type'])];
    if (!isObject(fn)) return missing(`${at}.${String(tool['type'])}`);
    if (!isString(fn['name'])) return missing(`${at}.${String(tool['type'])}.name`);
    if (!FUNCTION_NAME.test(fn['name'])) {
      return { message: `Invalid '${at}.function.name': string does not match pattern. Expected a string that matches the pattern '${FUNCTION_NAME.source}'.`, param: `${at}.function.name`, code: 'invalid_value' };
    }
    const strict = fn['strict'] === true ? strictSchemaRejection(fn['name'], fn['parameters'], `${at}.function.parameters`) : null;
    if (strict !== null) return strict;
  }
  return null;
}

/** The first problem with a Chat Completions body, as the API reports it, or null. */
export function checkOpenAIBody(body: unknown): RequestProblem | null {
  if (!isObject(body)) return { message: 'We could not parse the JSON body of your request.', param: null, code: null };
  if (!isString(body['model'])) return { message: 'you must provide a model parameter', param: null, code: null };
  if (!('messages' in body)) return missing('messages');
  const messages = body['messages'];
  if (!Array.isArray(messages)) return invalidType('messages', 'an array', messages);
  if (messages.length === 0) {
    return { message: "Invalid 'messages': empty array. Expected an array with minimum length 1, but got an empty array instead.", param: 'messages', code: 'empty_array' };
  }
  for (let i = 0; i < messages.length; i++) {
    const problem = checkMessage(messages[i], i);
    if (problem !== null) return problem;
  }
  return checkTools(body['tools']);
}

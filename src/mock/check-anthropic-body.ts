/**
 * The Messages API's body validation, as permissive as the real API and
 * worded as it words its 400s (`<path>: <problem>`, pydantic style: "Field
 * required", "Input should be a valid dictionary", ...). Real harnesses send
 * much more than faultline's own adapter: `role: "system"` messages (Claude
 * Code), thinking / redacted_thinking / image / document / server-tool blocks,
 * `cache_control` (with `ttl`) on any block, system as a string or a list of
 * blocks, metadata, thinking config, `context_management`, server tools
 * without an `input_schema`. Only what the API itself rejects is rejected
 * here; unknown fields and block types pass (the API grows them often).
 */
import { isInteger, isObject, isString, type JsonObject } from './json-shape.js';
import { perSharedTools } from './shared-tools.js';

/** tool_use ids and custom tool names the API takes (it rejects others with these patterns). */
const TOOL_USE_ID = /^[a-zA-Z0-9_-]+$/;
const TOOL_NAME = /^[a-zA-Z0-9_-]{1,128}$/;
const ROLES = new Set(['user', 'assistant', 'system']);

const required = (path: string) => `${path}: Field required`;

function checkBlock(block: unknown, path: string): string | null {
  if (!isObject(block)) return `${path}: Input should be a valid dictionary`;
  const type = block['type'];
  if (!isString(type)) return required(`${path}.type`);
  switch (type) {
    case 'text':
      if (!isString(block['text'])) return required(`${path}.text`);
      return null;
    case 'tool_use':
    case 'server_tool_use': {
      const at = `${path}.${type}`;
      if (!isString(block['id'])) return required(`${at}.id`);
      if (type === 'tool_use' && !TOOL_USE_ID.test(block['id'])) return `${at}.id: String should match pattern '${TOOL_USE_ID.source}'`;
      if (!isString(block['name'])) return required(`${at}.name`);
      if (!('input' in block)) return required(`${at}.input`);
      if (!isObject(block['input'])) return `${at}.input: Input should be a valid dictionary`;
      return null;
    }
    case 'tool_result': {
      const at = `${path}.tool_result`;
      if (!isString(block['tool_use_id'])) return required(`${at}.tool_use_id`);
      const content = block['content'];
      if (content !== undefined && !isString(content) && !Array.isArray(content)) return `${at}.content: Input should be a valid list`;
      if (Array.isArray(content)) for (let i = 0; i < content.length; i++) {
        const problem = checkBlock(content[i], `${at}.content.${i}`);
        if (problem !== null) return problem;
      }
      if ('is_error' in block && typeof block['is_error'] !== 'boolean') return `${at}.is_error: Input should be a valid boolean`;
      return null;
    }
    case 'thinking':
      if (!isString(block['thinking'])) return required(`${path}.thinking.thinking`);
      if (!isString(block['signature'])) return required(`${path}.thinking.signature`);
      return null;
    case 'redacted_thinking':
      if (!isString(block['data'])) return required(`${path}.redacted_thinking.data`);
      return null;
    default:
      // image, document, search_result, web_search_tool_result, mcp_tool_use, container_upload, ...: the mock reads none of them.
      return null;
  }
}

function checkMessage(message: unknown, i: number): string | null {
  const path = `messages.${i}`;
  if (!isObject(message)) return `${path}: Input should be a valid dictionary`;
  if (!('role' in message)) return required(`${path}.role`);
  if (!isString(message['role']) || !ROLES.has(message['role'])) return `${path}.role: Input should be 'user', 'assistant' or 'system'`;
  const content = message['content'];
  if (content === undefined) return required(`${path}.content`);
  if (isString(content)) return null;
  if (!Array.isArray(content)) return `${path}.content: Input should be a valid list`;
  for (let j = 0; j < content.length; j++) {
    const problem = checkBlock(content[j], `${path}.content.${j}`);
    if (problem !== null) return problem;
  }
  return null;
}

/** Remembered per shared definitions array (shared-tools.ts): it reads nothing but the array. */
const checkTools = perSharedTools(checkToolsOnce);

function checkToolsOnce(tools: unknown): string | null {
  if (tools === undefined) return null;
  if (!Array.isArray(tools)) return 'tools: Input should be a valid list';
  for (let i = 0; i < tools.length; i++) {
    const tool = tools[i];
    if (!isObject(tool)) return `tools.${i}: Input should be a valid dictionary`;
    const type = tool['type'];
    // Server and client-defined tools (web_search_20250305, bash_20250124, text_editor_..., mcp toolsets) carry no input_schema.
    if (isString(type) && type !== 'custom') continue;
    if (!isString(tool['name'])) return required(`tools.${i}.custom.name`);
    if (!TOOL_NAME.test(tool['name'])) return `tools.${i}.custom.name: String should match pattern '${TOOL_NAME.source}'`;
    if (!('input_schema' in tool)) return required(`tools.${i}.custom.input_schema`);
    if (!isObject(tool['input_schema'])) return `tools.${i}.custom.input_schema: Input should be a valid dictionary`;
  }
  return null;
}

function checkSystem(system: unknown): string | null {
  if (system === undefined || isString(system)) return null;
  if (!Array.isArray(system)) return 'system: Input should be a valid list';
  for (let i = 0; i < system.length; i++) {
    const block = system[i];
    if (!isObject(block) || block['type'] !== 'text') return `system.${i}.type: Input should be 'text'`;
    if (!isString(block['text'])) return required(`system.${i}.text`);
  }
  return null;
}

/** Content problems the API reports after the shape is right (its own wording). */
function checkNonEmpty(messages: JsonObject[]): string | null {
  for (let i = 0; i < messages.length; i++) {
    const content = messages[i]!['content'];
    const isFinalAssistant = i === messages.length - 1 && messages[i]!['role'] === 'assistant';
    if ((content === '' || (Array.isArray(content) && content.length === 0)) && !isFinalAssistant) {
      return `messages.${i}: all messages must have non-empty content except for the optional final assistant message`;
    }
    if (Array.isArray(content) && content.some((b) => isObject(b) && b['type'] === 'text' && b['text'] === '')) return 'messages: text content blocks must be non-empty';
  }
  return null;
}

/** The first problem with an Anthropic Messages body, as the API words it, or null. */
export function checkAnthropicBody(body: unknown): string | null {
  if (!isObject(body)) return 'Input should be a valid dictionary';
  if (!('model' in body)) return required('model');
  if (!isString(body['model'])) return 'model: Input should be a valid string';
  if (!('max_tokens' in body)) return required('max_tokens');
  if (!isInteger(body['max_tokens'])) return 'max_tokens: Input should be a valid integer';
  if (!('messages' in body)) return required('messages');
  const messages = body['messages'];
  if (!Array.isArray(messages)) return 'messages: Input should be a valid list';
  if (messages.length === 0) return 'messages: at least one message is required';
  for (let i = 0; i < messages.length; i++) {
    const problem = checkMessage(messages[i], i);
    if (problem !== null) return problem;
  }
  if ('stream' in body && typeof body['stream'] !== 'boolean') return 'stream: Input should be a valid boolean';
  return checkSystem(body['system']) ?? checkTools(body['tools']) ?? checkNonEmpty(messages as JsonObject[]);
}

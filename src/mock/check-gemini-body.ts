/**
 * The Gemini API's body validation for generateContent, as permissive as the
 * API and worded as its 400s: `contents` must be given and every content
 * needs parts; roles are `user` and `model` (absent = user); a part is one
 * of text, functionCall, functionResponse, inlineData, fileData, thought...
 * (other part kinds pass unread). Function declarations need a valid name,
 * and their `parameters` the Schema subset (gemini-schema-subset.ts).
 * Unknown top-level fields are a 400 on the real API ("Unknown name"), so
 * they are here too; the known ones (generationConfig, safetySettings,
 * toolConfig, cachedContent, labels, ...) pass.
 */
import type { RequestProblem } from './decoded-request.js';
import { geminiSchemaProblem } from './gemini-schema-subset.js';
import { isObject, isString } from './json-shape.js';
import { perSharedTools } from './shared-tools.js';

const TOP_LEVEL = new Set(['contents', 'systemInstruction', 'system_instruction', 'tools', 'toolConfig', 'tool_config', 'generationConfig', 'generation_config', 'safetySettings', 'safety_settings', 'cachedContent', 'cached_content', 'labels', 'model', 'serviceTier', 'store']);
const ROLES = ['user', 'model'];
/** Function names: a letter or underscore first, then letters, digits, underscores, dots, colons, dashes; 64 at most. */
const FUNCTION_NAME = /^[A-Za-z_][A-Za-z0-9_.:-]{0,63}$/;

const field = (message: string): RequestProblem => ({ message: `* GenerateContentRequest.${message}\n` });

function checkContents(contents: unknown): RequestProblem | null {
  if (contents === undefined || (Array.isArray(contents) && contents.length === 0)) return field('contents: contents is not specified');
  if (!Array.isArray(contents)) return { message: `Invalid JSON payload received. Unknown name "contents" at '': Proto field is not repeating, cannot start list.` };
  for (let i = 0; i < contents.length; i++) {
    const content = contents[i];
    if (!isObject(content)) return { message: `Invalid value at 'contents[${i}]' (type.googleapis.com/google.ai.generativelanguage.v1beta.Content), ${JSON.stringify(content)}` };
    const role = content['role'];
    if (role !== undefined && role !== '' && !ROLES.includes(String(role))) return { message: 'Please use a valid role: user, model.' };
    const parts = content['parts'];
    if (!Array.isArray(parts) || parts.length === 0) return field(`contents[${i}].parts: contents.parts must not be empty.`);
    for (let j = 0; j < parts.length; j++) {
      const part = parts[j];
      if (!isObject(part)) return { message: `Invalid value at 'contents[${i}].parts[${j}]' (type.googleapis.com/google.ai.generativelanguage.v1beta.Part), ${JSON.stringify(part)}` };
      const call = part['functionCall'] ?? part['function_call'];
      if (call !== undefined && (!isObject(call) || !isString(call['name']) || call['name'] === '')) return field(`contents[${i}].parts[${j}].function_call.name: Name cannot be empty.`);
      const response = part['functionResponse'] ?? part['function_response'];
      if (response !== undefined && (!isObject(response) || !isString(response['name']) || response['name'] === '')) return field(`contents[${i}].parts[${j}].function_response.name: Name cannot be empty.`);
    }
  }
  return null;
}

/** Remembered per shared definitions array (shared-tools.ts): it reads nothing but the array. */
const checkTools = perSharedTools(checkToolsOnce);

function checkToolsOnce(tools: unknown): RequestProblem | null {
  if (tools === undefined) return null;
  if (!Array.isArray(tools)) return { message: `Invalid JSON payload received. Unknown name "tools" at '': Proto field is not repeating, cannot start list.` };
  for (let i = 0; i < tools.length; i++) {
    const tool = tools[i];
    if (!isObject(tool)) continue;
    const declarations = tool['functionDeclarations'] ?? tool['function_declarations'];
    if (declarations === undefined) continue;
    if (!Array.isArray(declarations)) return { message: `Invalid JSON payload received. Unknown name "functionDeclarations" at 'tools[${i}]': Proto field is not repeating, cannot start list.` };
    for (let j = 0; j < declarations.length; j++) {
      const at = `tools[${i}].function_declarations[${j}]`;
      const fn = declarations[j];
      if (!isObject(fn)) continue;
      if (!isString(fn['name']) || !FUNCTION_NAME.test(fn['name'])) {
        return field(`${at}.name: Invalid function name. Must start with a letter or an underscore. Must be alphameric (a-z, A-Z, 0-9), underscores (_), dots (.), colons (:) or dashes (-), with a maximum length of 64.`);
      }
      if (fn['parameters'] !== undefined && fn['parametersJsonSchema'] !== undefined) {
        return field(`${at}: parameters and parameters_json_schema must not be set at the same time.`);
      }
      if (fn['parameters'] !== undefined) {
        const problem = geminiSchemaProblem(fn['parameters'], `${at}.parameters`);
        if (problem !== null) return problem;
      }
    }
  }
  return null;
}

/** The first problem with a generateContent body, as the API reports it, or null. */
export function checkGeminiBody(body: unknown): RequestProblem | null {
  if (!isObject(body)) return { message: 'Invalid JSON payload received. Expected an object.' };
  for (const key of Object.keys(body)) if (!TOP_LEVEL.has(key)) return { message: `Invalid JSON payload received. Unknown name "${key}": Cannot find field.` };
  return checkContents(body['contents']) ?? checkTools(body['tools']);
}

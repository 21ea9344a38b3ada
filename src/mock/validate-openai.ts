/**
 * Protocol checks the real Chat Completions API makes (docs/harness-rules.md#one-result-per-call, docs/harness-rules.md#wire-differences), with
 * its exact 400 texts and `param` paths. Runs on wire messages: the indices in
 * `param` are wire indices (system and each tool message count).
 */
import { isObject, isString, type JsonObject } from './json-shape.js';

export interface OpenAIViolation {
  message: string;
  param: string;
}

function callIds(message: JsonObject | undefined): string[] | null {
  const calls = message?.['tool_calls'];
  if (message?.['role'] !== 'assistant' || !Array.isArray(calls) || calls.length === 0) return null;
  return calls.flatMap((c) => (isObject(c) && isString(c['id']) ? [c['id']] : []));
}

/** The first protocol violation, or null. */
export function checkOpenAIPairing(wireMessages: readonly unknown[]): OpenAIViolation | null {
  const messages = wireMessages.filter(isObject);
  for (let i = 0; i < messages.length; i++) {
    const message = messages[i];
    if (message?.['role'] === 'tool') {
      const toolCallId = String(message['tool_call_id']);
      // Walk back over the run of tool messages to the message they answer.
      let owner = i - 1;
      while (messages[owner]?.['role'] === 'tool') owner--;
      const ids = callIds(messages[owner]);
      if (ids === null) {
        return {
          message: "Invalid parameter: messages with role 'tool' must be a response to a preceeding message with 'tool_calls'.",
          param: `messages.[${i}].role`,
        };
      }
      if (!ids.includes(toolCallId)) {
        return {
          message: `Invalid parameter: 'tool_call_id' of '${toolCallId}' not found in 'tool_calls' of previous message.`,
          param: `messages.[${i}].tool_call_id`,
        };
      }
      continue;
    }
    const ids = callIds(message);
    if (ids === null) continue;
    const answered = new Set<string>();
    let next = i + 1;
    for (let m = messages[next]; m?.['role'] === 'tool'; m = messages[++next]) answered.add(String(m['tool_call_id']));
    const missing = ids.filter((id) => !answered.has(id));
    if (missing.length > 0) {
      return {
        message:
          "An assistant message with 'tool_calls' must be followed by tool messages responding to each 'tool_call_id'. " +
          `The following tool_call_ids did not have response messages: ${missing.join(', ')}`,
        param: `messages.[${next}].role`,
      };
    }
  }
  return null;
}

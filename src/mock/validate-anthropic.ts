/**
 * Protocol checks the real Messages API makes (docs/harness-rules.md#one-result-per-call), with its exact 400
 * texts, so a harness that breaks the pairing fails here as it would live.
 * Runs on the conversation as the API sees it (consecutive same-role messages
 * merged, see merge-turns.ts); indices name the wire messages.
 */
import { isString } from './json-shape.js';
import { mergeTurns, type MergedMessage } from './merge-turns.js';

function toolUseIds(message: MergedMessage | undefined): string[] {
  const ids: string[] = [];
  if (message?.role !== 'assistant') return ids;
  for (const b of message.content) if (b['type'] === 'tool_use' && isString(b['id'])) ids.push(b['id']);
  return ids;
}

function toolResultIds(message: MergedMessage | undefined): Array<{ id: string; index: number }> {
  const ids: Array<{ id: string; index: number }> = [];
  if (message?.role !== 'user') return ids;
  const content = message.content;
  for (let index = 0; index < content.length; index++) {
    const b = content[index]!;
    if (b['type'] === 'tool_result' && isString(b['tool_use_id'])) ids.push({ id: b['tool_use_id'], index });
  }
  return ids;
}

/** A tool_use id seen twice anywhere in the request, worded as the API does. */
function duplicateToolUseId(messages: readonly MergedMessage[]): string | null {
  const seen = new Set<string>();
  for (const message of messages) {
    if (message.role !== 'assistant') continue;
    for (let j = 0; j < message.content.length; j++) {
      const b = message.content[j]!;
      if (b['type'] !== 'tool_use' || !isString(b['id'])) continue;
      if (seen.has(b['id'])) return `messages.${message.index}.content.${j}: \`tool_use\` ids must be unique`;
      seen.add(b['id']);
    }
  }
  return null;
}

/** A request whose conversation holds tool blocks must declare tools (the API's own text). */
export function toolsRequired(messages: readonly unknown[], tools: unknown, merged: readonly MergedMessage[] = mergeTurns(messages)): string | null {
  if (Array.isArray(tools) && tools.length > 0) return null;
  const hasToolBlocks = merged.some((m) => m.content.some((b) => b['type'] === 'tool_use' || b['type'] === 'tool_result'));
  return hasToolBlocks ? 'Requests which include `tool_use` or `tool_result` blocks must define tools.' : null;
}

/** The first protocol violation as the API words it, or null (`merged`: the same messages through mergeTurns, when the caller has them). */
export function checkAnthropicPairing(wireMessages: readonly unknown[], messages: readonly MergedMessage[] = mergeTurns(wireMessages)): string | null {
  const duplicate = duplicateToolUseId(messages);
  if (duplicate !== null) return duplicate;
  for (let i = 0; i < messages.length; i++) {
    const message = messages[i]!;
    if (message.role === 'assistant') {
      const answered = new Set(toolResultIds(messages[i + 1]).map((r) => r.id));
      const used = toolUseIds(message);
      const missing = used.filter((id) => !answered.has(id));
      if (missing.length > 0) {
        return (
          `messages.${message.index}: \`tool_use\` ids were found without \`tool_result\` blocks immediately after: ${missing.join(', ')}. ` +
          'Each `tool_use` block must have a corresponding `tool_result` block in the next message.'
        );
      }
      // Every result there, but not all at the start (text before them or between them): the API's own 400.
      const uses = used.length;
      const next = messages[i + 1];
      if (uses > 0 && next && next.content.slice(0, uses).some((b) => b['type'] !== 'tool_result')) {
        return (
          `messages.${next.index}: Did not find ${uses} \`tool_result\` block(s) at the beginning of this message. ` +
          'Messages following `tool_use` blocks must begin with a matching number of `tool_result` blocks.'
        );
      }
    } else {
      const asked = new Set(toolUseIds(messages[i - 1]));
      const orphan = toolResultIds(message).find((r) => !asked.has(r.id));
      if (orphan) {
        return (
          `messages.${message.index}.content.${orphan.index}: unexpected \`tool_use_id\` found in \`tool_result\` blocks: ${orphan.id}. ` +
          'Each `tool_result` block must have a corresponding `tool_use` block in the previous message.'
        );
      }
    }
  }
  return null;
}

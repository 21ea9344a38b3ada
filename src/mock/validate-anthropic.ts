/**
 * Protocol checks the real Messages API makes (seed §2.4), with its exact 400
 * texts, so a harness that breaks the pairing fails here as it would live.
 */
import type { AnthropicWireMessage } from './decode-anthropic.js';

function toolUseIds(message: AnthropicWireMessage | undefined): string[] {
  if (!message || message.role !== 'assistant' || typeof message.content === 'string') return [];
  return message.content.flatMap((b) => (b.type === 'tool_use' && 'id' in b && typeof b.id === 'string' ? [b.id] : []));
}

function toolResultIds(message: AnthropicWireMessage | undefined): Array<{ id: string; index: number }> {
  if (!message || message.role !== 'user' || typeof message.content === 'string') return [];
  return message.content.flatMap((b, index) =>
    b.type === 'tool_result' && 'tool_use_id' in b && typeof b.tool_use_id === 'string' ? [{ id: b.tool_use_id, index }] : [],
  );
}

/** A tool_use id seen twice anywhere in the request, worded as the API does. */
function duplicateToolUseId(messages: AnthropicWireMessage[]): string | null {
  const seen = new Set<string>();
  for (let i = 0; i < messages.length; i++) {
    const message = messages[i];
    if (!message || message.role !== 'assistant' || typeof message.content === 'string') continue;
    for (let j = 0; j < message.content.length; j++) {
      const b = message.content[j];
      if (b?.type !== 'tool_use' || !('id' in b) || typeof b.id !== 'string') continue;
      if (seen.has(b.id)) return `messages.${i}.content.${j}: \`tool_use\` ids must be unique`;
      seen.add(b.id);
    }
  }
  return null;
}

/** The first protocol violation as the API words it, or null. */
export function checkAnthropicPairing(messages: AnthropicWireMessage[]): string | null {
  const duplicate = duplicateToolUseId(messages);
  if (duplicate !== null) return duplicate;
  for (let i = 0; i < messages.length; i++) {
    const message = messages[i];
    if (message?.role === 'assistant') {
      const answered = new Set(toolResultIds(messages[i + 1]).map((r) => r.id));
      const missing = toolUseIds(message).filter((id) => !answered.has(id));
      if (missing.length > 0) {
        return (
          `messages.${i}: \`tool_use\` ids were found without \`tool_result\` blocks immediately after: ${missing.join(', ')}. ` +
          'Each `tool_use` block must have a corresponding `tool_result` block in the next message.'
        );
      }
    } else {
      const asked = new Set(toolUseIds(messages[i - 1]));
      const orphan = toolResultIds(message).find((r) => !asked.has(r.id));
      if (orphan) {
        return (
          `messages.${i}.content.${orphan.index}: unexpected \`tool_use_id\` found in \`tool_result\` blocks: ${orphan.id}. ` +
          'Each `tool_result` block must have a corresponding `tool_use` block in the previous message.'
        );
      }
    }
  }
  return null;
}

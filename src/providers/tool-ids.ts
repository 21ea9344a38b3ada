/**
 * Tool-use ids the API will take back. A model (or gateway) can send the same
 * id twice in one turn, reuse an id from an earlier turn, or send none; the
 * next request then fails (Anthropic: "`tool_use` ids must be unique") or the
 * results cannot be told apart. The adapter renames such ids once, before the
 * harness or a streaming consumer sees the block, so every result pairs.
 */
import type { AssistantBlock, Message } from './types.js';

export class ToolIdRegistry {
  private readonly seen = new Set<string>();

  /** Ids already in the conversation are taken. */
  constructor(messages: readonly Message[] = []) {
    for (const m of messages) if (m.role === 'assistant') for (const b of m.content) if (b.type === 'tool_use') this.seen.add(b.id);
  }

  /** `id` if it is new and non-empty, else a fresh derived one (`<id>_dup<n>`, or `toolu_faultline_<n>` for an empty id). */
  unique(id: string): string {
    let candidate = id;
    for (let n = 1; candidate === '' || this.seen.has(candidate); n++) candidate = id === '' ? `toolu_faultline_${n}` : `${id}_dup${n}`;
    this.seen.add(candidate);
    return candidate;
  }

  /** The content with every tool_use id made unique (in order). */
  apply(content: AssistantBlock[]): AssistantBlock[] {
    return content.map((b) => (b.type === 'tool_use' ? { ...b, id: this.unique(b.id) } : b));
  }
}

/**
 * `content` with every tool_use id unique against the conversation so far
 * (ToolIdRegistry.apply); a reply without a tool call is returned as it is,
 * without collecting the conversation's ids first.
 */
export function withUniqueToolIds(messages: readonly Message[], content: AssistantBlock[]): AssistantBlock[] {
  for (const block of content) if (block.type === 'tool_use') return new ToolIdRegistry(messages).apply(content);
  return content;
}

/**
 * The per-turn announcement of deferred tools that appeared during the
 * session (an MCP server that connected late, a reconnect that listed new
 * tools). The tool definitions and tool_search's description are the cached
 * prefix and must not change with runtime state, so a tool that appears
 * later is told in the conversation instead: only the new ones, each once.
 *
 * A tool that disappears is passed over in silence: it was either loaded by
 * tool_search (the model did that itself) or its source went away (calling it
 * then fails with its own answer) — the two cannot be told apart from the
 * list, and neither needs a word.
 *
 * After a compaction the announcements in the history may be gone, so every
 * tool announced before that is still deferred is announced again: a
 * delta-only announcer would never repeat them and the model would lose them.
 */
import type { TextBlock } from '../../providers/types.js';
import type { ToolLookup } from '../pipeline/lookup.js';

export const ANNOUNCE_OPEN = '<available-deferred-tools>';

export class DeferredAnnouncer {
  /** What the session started with: named (or searchable) in tool_search's own description. */
  private baseline: Set<string> | null = null;
  private readonly announced = new Set<string>();

  constructor(private readonly registry: ToolLookup) {}

  private unloaded(): string[] {
    return this.registry.names().filter((n) => this.registry.isUnloaded?.(n) === true);
  }

  /** The text to add to this turn's message, or null when nothing new appeared. `full`: after a compaction. */
  take(full = false): { block: TextBlock; count: number } | null {
    const now = this.unloaded();
    if (this.baseline === null) {
      this.baseline = new Set(now);
      return null;
    }
    const fresh = now.filter((n) => !this.baseline!.has(n) && (full || !this.announced.has(n)));
    if (fresh.length === 0) return null;
    for (const n of fresh) this.announced.add(n);
    const text = `${ANNOUNCE_OPEN} Deferred tools now available (load one with tool_search "select:name" before calling it): ${fresh.join(', ')}.</available-deferred-tools>`;
    return { block: { type: 'text', text }, count: fresh.length };
  }
}
